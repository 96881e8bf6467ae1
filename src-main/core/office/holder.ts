import { type Aimd, createAimd, OFFICE_AIMD, probeDelayMs } from './aimd';
import { CLASSES, type Contender, type DemandClass, pickNext, waterFill } from './fair-share';
import { type Demand, NO_DEMAND, type OfficeState } from './protocol';

/**
 * The holder's side of the office: the only window of the address. It grants short leases (a few places,
 * each to be used within `LEASE_TTL_MS`); a granted place counts as spent, used or not. Places go out one at
 * a time by `pickNext` (fair by demand, lanes first), at most `ceiling` in any 60 s and paced at the
 * ceiling's steady rate after a small burst (`BURST`, `PACE`). The window also counts what the desks say
 * they sent beyond its places (on their own word, while joining, before this holder): what the service
 * counts. The ceiling is the office's AIMD: any desk's 429 lowers it, under what the window held. A 429
 * without Retry-After pauses every desk and sends one probe after 2, 4, 8 ... 60 s; a probe answered resumes.
 */
export const WINDOW_MS = 60_000;
export const LEASE_TTL_MS = 5_000;
/** Places a desk may hold at once (unused places of its leases plus new ones). */
export const LEASE_MAX = 4;
/** The most places granted at once beyond the steady rate. */
export const BURST = 2;
/**
 * The pace of places, in ceilings a minute: the steady rate. Faster (twice the rate was tried: a minute's
 * places in its first half) fills the service's window early in each minute, and whoever else spends the
 * address (a script, a browser) is then refused until the minute's first requests free: in the simulation's
 * hidden-6, 13 of a hidden consumer's 70 requests refused at twice the rate, 4 at the steady rate. At the
 * steady rate the window fills last and frees first where the office is alone, and a run of a little more
 * than a minute's allowance costs a few seconds (once-2: 1.05x the floor).
 */
export const PACE = 1;
/**
 * Places of the window a burst leaves free for other users of the address (a script, a browser) beyond the
 * ceiling's own margin under the service's limit (docs/office.md "A drop goes up at once": what it costs and saves).
 */
export const RESERVE = 0;
/** Background walks get at most this share of the window (as the single desk's budget). */
const BACKGROUND_SHARE = 0.05;
/** A probe whose answer never comes (its desk left) is sent again after this. */
const PROBE_ANSWER_MS = 30_000;

export interface GrantOut {
  to: string;
  n: number;
  ttlMs: number;
  probe: boolean;
  share: number;
  ceiling: number;
  desks: number;
  pauseMs: number;
}

export interface HolderOptions {
  /** The highest ceiling (the single desk's budget, or the user's lower setting). */
  max: number;
  now: () => number;
  send: (grant: GrantOut) => void;
  /** A pause began or ended: the desk tells everyone at once (not at the next heartbeat). */
  onPause?: () => void;
  random?: () => number;
  /** The ceiling to start from (the office's last known one when a holder takes over). */
  ceiling?: number;
}

interface DeskDemand {
  want: Demand;
  /** Requests of class `now` the desk had waiting at its last ask (`want` holds at most a lease of them). */
  drop: number;
  busy: boolean;
  /** What the desk says it sent in the last 60 s, places it holds included (its heartbeat). */
  used: number;
  /** When this holder heard `used` (-Infinity: never). */
  heardAt: number;
  /**
   * When the requests `used` counts were sent, as the heartbeats tell it: each rise placed at the heartbeat
   * that said it (at most a heartbeat late, so never freed before the service frees it), each fall taken from
   * the oldest. What a desk that leaves still has in the service's window, at about its times.
   */
  sentAt: number[];
}

/** A place granted this long before a desk's heartbeat was heard may not be in the `used` it said. */
const REPORT_SLACK_MS = 250;

/** A desk's last minute, as a new holder learns it (a peer's heartbeat, or a desk gone since). */
export interface SeedOf {
  id: string;
  used: number;
  /** When it said so (its last heartbeat): its requests are spread over the minute before. */
  at: number;
  /**
   * When the desk started (its word, as in the election): none of its requests is older, so they are spread
   * from then, not over a whole minute. A holder that took over in an office's first seconds otherwise took
   * the first burst (every desk's listing and first uploads) as spread over the minute before, freed its
   * places from the start, and the service refused the office a minute later (bench:office once-12).
   */
  since?: number;
}

export interface Holder {
  readonly ceiling: number;
  /** A desk's wish: its waiting requests by class and the unused places it still holds. */
  ask(from: string, demand: Demand, held: number): void;
  /** A desk's heartbeat: what it sent in the last minute and whether it has a backlog. */
  heard(from: string, used: number, demand: Demand): void;
  /** The desks alive now (self included); places of the gone are simply not granted again. */
  members(ids: readonly string[]): void;
  limited(from: string, retryAfterMs: number | null, probe: boolean): void;
  probed(from: string): void;
  /** Starts the window from what the desks say they sent in the last minute (a new holder). */
  seed(desks: readonly SeedOf[]): void;
  /** The office's requests the service counts now: the window's places, and what desks sent beyond them. */
  readonly counted: number;
  state(): OfficeState;
  shareOf(id: string): number;
  close(): void;
}

export function createHolder(opts: HolderOptions): Holder {
  const { now } = opts;
  const random = opts.random ?? Math.random;
  const aimd: Aimd = createAimd({ ...OFFICE_AIMD, max: opts.max }, now());
  if (opts.ceiling !== undefined) aimd.reset(opts.ceiling, now());
  let window: { at: number; to: string; cls: DemandClass | 'seed' }[] = [];
  /** A desk's places in the window, by desk. */
  const inWindowOf = (): Map<string, number> => {
    const m = new Map<string, number>();
    for (const g of window) m.set(g.to, (m.get(g.to) ?? 0) + 1);
    return m;
  };
  /**
   * What members sent beyond the places of this window (on their own word while no place came, while
   * joining, from an earlier holder's leases not seeded): the service counted those too.
   */
  /**
   * Each member's requests in the service's window as this holder knows them: its places here, or its word
   * when that is more. Places granted since a desk said its `used` are not in it (the grant was on its way):
   * added to its word, or a desk whose word exceeds its places (own-word requests, an earlier holder's) hides
   * the newest grants. A desk's word counts up to the ceiling's maximum: a peer that claims everything costs at
   * most what no coordination costs (every desk then sends its equal share on its own word, office-budget.ts).
   */
  function countsOf(): Map<string, { places: number; word: number }> {
    const places = inWindowOf();
    const since = new Map<string, number>();
    for (const g of window) {
      const d = desks.get(g.to);
      if (d && g.at >= d.heardAt - REPORT_SLACK_MS) since.set(g.to, (since.get(g.to) ?? 0) + 1);
    }
    const out = new Map<string, { places: number; word: number }>();
    for (const id of members) {
      const d = desks.get(id);
      const word =
        d && d.heardAt > Number.NEGATIVE_INFINITY ? Math.min(opts.max, d.used) + (since.get(id) ?? 0) : 0;
      out.set(id, { places: places.get(id) ?? 0, word });
    }
    return out;
  }
  /**
   * What members sent beyond the places of this window (on their own word while no place came, while
   * joining, from an earlier holder's leases not seeded): the service counted those too.
   */
  function beyond(): number {
    let n = 0;
    for (const c of countsOf().values()) n += Math.max(0, c.word - c.places);
    return n;
  }
  let tokens = BURST;
  let refilledAt = now();
  const desks = new Map<string, DeskDemand>();
  let members: readonly string[] = [];
  let pausedUntil = 0;
  let probing: { attempt: number; out: string | null; sentAt: number } | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let closed = false;

  const deskOf = (id: string): DeskDemand => {
    let d = desks.get(id);
    if (!d) {
      d = {
        want: { ...NO_DEMAND },
        drop: 0,
        busy: false,
        used: 0,
        heardAt: Number.NEGATIVE_INFINITY,
        sentAt: [],
      };
      desks.set(id, d);
    }
    return d;
  };

  function expire(t: number): void {
    let drop = 0;
    while (drop < window.length && window[drop]!.at <= t - WINDOW_MS) drop++;
    if (drop > 0) window = window.slice(drop);
  }

  function refill(t: number): void {
    const rate = (PACE * aimd.value) / WINDOW_MS;
    tokens = Math.min(BURST, tokens + (t - refilledAt) * rate);
    refilledAt = t;
  }

  function shares(): Map<string, number> {
    const list = members.map((id) => {
      const d = desks.get(id);
      return { id, demand: !d || d.busy ? Number.POSITIVE_INFINITY : d.used };
    });
    return waterFill(aimd.value, list);
  }

  function schedule(ms: number): void {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(pump, Math.max(1, Math.ceil(ms)));
  }

  function grantOut(batch: Map<string, { n: number; probe: boolean }>): void {
    const s = shares();
    const t = now();
    for (const [to, g] of batch)
      opts.send({
        to,
        n: g.n,
        ttlMs: LEASE_TTL_MS,
        probe: g.probe,
        share: Math.round(s.get(to) ?? 0),
        ceiling: aimd.value,
        desks: Math.max(1, members.length),
        pauseMs: pauseLeft(t),
      });
  }

  /** While probing, the office stays paused past the timer: until a probe is answered (a heartbeat renews it). */
  function pauseLeft(t: number): number {
    const left = Math.max(0, Math.ceil(pausedUntil - t));
    return Math.min(60_000, probing ? Math.max(left, 2 * 1_000) : left);
  }

  function contenders(): Contender[] {
    // A desk's requests in the window, its own word's included: counted by places alone, a desk that had sent
    // on its own word looked furthest behind and got the next places too, and the desks it passed waited past
    // their equal share and sent on their own word in turn (the simulation's once-12: 29% of requests).
    const counts = countsOf();
    const last = new Map<string, number>();
    for (const g of window) last.set(g.to, g.at);
    return members.flatMap((id) => {
      const d = desks.get(id);
      const c = counts.get(id);
      return d && c
        ? [
            {
              id,
              want: d.want,
              inWindow: Math.max(c.places, c.word),
              lastAt: last.get(id) ?? Number.NEGATIVE_INFINITY,
            },
          ]
        : [];
    });
  }

  function pump(): void {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    if (closed) return;
    const t = now();
    aimd.tick(t);
    expire(t);
    refill(t);
    const batch = new Map<string, { n: number; probe: boolean }>();
    const add = (to: string, probe: boolean) => {
      const b = batch.get(to) ?? { n: 0, probe };
      b.n++;
      batch.set(to, b);
    };
    try {
      if (t < pausedUntil) {
        schedule(pausedUntil - t);
        return;
      }
      if (probing) {
        // One request at a time until a probe is answered without a 429.
        if (probing.out !== null && t - probing.sentAt < PROBE_ANSWER_MS) {
          schedule(probing.sentAt + PROBE_ANSWER_MS - t);
          return;
        }
        const next = pickNext(contenders());
        if (!next) return;
        probing.out = next.id;
        probing.sentAt = t;
        take(next.id, next.cls, t);
        add(next.id, true);
        schedule(PROBE_ANSWER_MS);
        return;
      }
      const cap = aimd.value;
      const bgCap = Math.max(1, Math.floor(cap * BACKGROUND_SHARE));
      for (;;) {
        const bgIn = window.reduce((n, g) => n + (g.cls === 'bg' ? 1 : 0), 0);
        const next = pickNext(contenders(), bgIn < bgCap);
        if (!next) return;
        const room = cap - beyond();
        if (room <= 0) {
          // Only desks' word holds the window: their next heartbeats say when it frees.
          schedule(1_000);
          return;
        }
        if (window.length >= room) {
          schedule(window[window.length - room]!.at + WINDOW_MS - t);
          return;
        }
        if (tokens < 1 && !burstRoom(next.id, next.cls, cap)) {
          schedule((1 - tokens) / ((PACE * cap) / WINDOW_MS));
          return;
        }
        // A burst borrows from the pace: what follows it waits until the steady rate has caught up.
        tokens -= 1;
        take(next.id, next.cls, t);
        add(next.id, false);
      }
    } finally {
      if (batch.size > 0) grantOut(batch);
    }
  }

  /**
   * A fresh drop (class `now`: files that just landed in a watched folder, "Upload now") takes its places from
   * the room the window has free at once, not at the pace: paced, a drop of 100 files into a desk of an office
   * whose others are idle goes at the ceiling's steady rate, 52 s (leases.test.ts: 3 places in its first
   * second), for what a desk alone sends in a second or two.
   * Desks with drops share the room by `pickNext` (the fewest places first). The backlog (`sync`, `bg`) stays
   * paced: desks that start together would otherwise race for the whole minute, the first to ask taking it.
   * `RESERVE` places of the window stay unspent by bursts. A drop is several places wanted at once: a lone
   * request of the class (a desk's `GET /me`, its listing) goes at the pace, as before; let through, every
   * desk's first requests of a run borrowed from the pace at once, the backlog's places came late, and desks
   * sent on their own word (the simulation's once-6: 1 request of 378 before, 65 with it).
   */
  function burstRoom(id: string, cls: DemandClass, cap: number): boolean {
    return cls === 'now' && (desks.get(id)?.drop ?? 0) >= 2 && window.length + beyond() < cap - RESERVE;
  }

  function take(id: string, cls: DemandClass, t: number): void {
    const d = deskOf(id);
    d.want = { ...d.want, [cls]: d.want[cls] - 1 };
    window.push({ at: t, to: id, cls });
    // A period with places granted and no 429 reported is a clean one (the increase of AIMD).
    aimd.answered(t);
  }

  return {
    get ceiling() {
      return aimd.value;
    },
    ask(from, demand, held) {
      const d = deskOf(from);
      let room = Math.max(0, LEASE_MAX - held);
      const want = { ...NO_DEMAND };
      for (const cls of CLASSES) {
        const n = Math.min(room, demand[cls]);
        want[cls] = n;
        room -= n;
      }
      d.want = want;
      d.drop = demand.now;
      d.busy = demand.now + demand.sync + demand.bg > 0;
      pump();
    },
    heard(from, used, demand) {
      const d = deskOf(from);
      const t = now();
      const said = Math.max(0, Math.min(opts.max, Math.floor(used)));
      const live = d.sentAt.filter((at) => at > t - WINDOW_MS);
      d.sentAt =
        said >= live.length
          ? [...live, ...Array(said - live.length).fill(t)]
          : live.slice(live.length - said);
      d.used = used;
      d.heardAt = t;
      d.busy = demand.now + demand.sync + demand.bg > 0;
    },
    members(ids) {
      members = [...ids];
      const t = now();
      const mine = inWindowOf();
      for (const [id, d] of [...desks]) {
        if (ids.includes(id)) continue;
        desks.delete(id);
        // A desk that leaves (bye, or silent) took what it sent beyond its places out of beyond(), but the
        // service counts those until they are a minute old (bench:office once-12: the office refused as the
        // first desks left, and the cut held it at 103 a minute for the next five). Its places become what its
        // heartbeats said it sent, at their times, and the places granted since its last word: spread over the
        // minute instead, its last requests (sent on its own word as the office filled) were freed up to 30 s
        // early, and the office stood at 120 by the service's count, 115 by the holder's.
        if (d.heardAt === Number.NEGATIVE_INFINITY) continue;
        const since = window.filter((g) => g.to === id && g.at >= d.heardAt - REPORT_SLACK_MS);
        const word = d.sentAt.filter((at) => at > t - WINDOW_MS);
        if (word.length + since.length < (mine.get(id) ?? 0)) continue;
        window = [
          ...window.filter((g) => g.to !== id),
          ...word.map((at) => ({ at, to: id, cls: 'seed' as const })),
          ...since,
        ].sort((a, b) => a.at - b.at);
      }
      if (probing?.out && !ids.includes(probing.out)) probing.out = null;
      pump();
    },
    limited(from, retryAfterMs, probe) {
      const t = now();
      expire(t);
      // The address was full with this many of the office's requests in it: the cut goes under that.
      aimd.limited(t, { used: window.length + beyond() });
      const before = pausedUntil;
      if (retryAfterMs !== null) {
        pausedUntil = Math.max(pausedUntil, t + retryAfterMs);
      } else if (!probing || (probe && probing.out === from)) {
        const attempt = probing ? probing.attempt + 1 : 1;
        probing = { attempt, out: null, sentAt: 0 };
        pausedUntil = Math.max(pausedUntil, t + probeDelayMs(attempt, random));
      }
      if (pausedUntil !== before) opts.onPause?.();
      pump();
    },
    probed(from) {
      if (probing && probing.out === from) {
        probing = null;
        pausedUntil = 0;
        opts.onPause?.();
        pump();
      }
    },
    seed(list) {
      // Each desk's last minute, spread evenly over the minute before it said so: places free one by one.
      // A desk gone (killed) still has its requests in the service's window until they are a minute old.
      const t = now();
      window = list
        .flatMap((d) => {
          const n = Math.max(0, Math.min(opts.max, Math.floor(d.used)));
          const said = Math.min(t, d.at);
          // A start in the future (another machine's clock ahead) says nothing: all as late as possible then.
          const span = Math.max(0, Math.min(WINDOW_MS, said - Math.min(said, d.since ?? said - WINDOW_MS)));
          const step = span / Math.max(1, n);
          return Array.from({ length: n }, (_, i) => ({
            at: said - span + (i + 1) * step,
            to: d.id,
            cls: 'seed' as const,
          }));
        })
        .filter((g) => g.at > t - WINDOW_MS)
        .sort((a, b) => a.at - b.at);
      tokens = 1;
      refilledAt = t;
      pump();
    },
    get counted() {
      expire(now());
      return window.length + beyond();
    },
    state() {
      const t = now();
      aimd.tick(t);
      const s = shares();
      return {
        ceiling: aimd.value,
        desks: Math.max(1, members.length),
        pauseMs: pauseLeft(t),
        shares: members.map((id) => ({ id, share: Math.round((s.get(id) ?? 0) * 10) / 10 })),
      };
    },
    shareOf(id) {
      return shares().get(id) ?? 0;
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
