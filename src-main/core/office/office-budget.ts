import { monotonicNow } from '../service/clock';
import {
  createLaneQueue,
  createLaneWindow,
  type Lane,
  type LaneReadings,
  withLanes,
} from '../service/lane-queue';
import { DEFAULT_BACKGROUND_SHARE, type RequestBudget } from '../service/request-budget';
import { type Aimd, createAimd, OFFICE_AIMD, probeDelayMs } from './aimd';
import type { Desk, Grant, Role } from './desk';
import { LEASE_MAX, WINDOW_MS } from './holder';
import type { Demand } from './protocol';

/**
 * The file API's request budget of a desk (RequestBudget, as request-budget.ts): the same lanes and waiters,
 * but places come from the office. With peers, from the holder's leases; alone (no peer found, or the office
 * left in Settings), from its own sliding window. Either way the desk keeps its own window at its own AIMD
 * ceiling, which only its own replies move: a holder's lease never sends past what this desk's 429s allow.
 *
 * Advice, never a dependency: a desk that asked and got nothing for as long as its equal share would take
 * (ceiling / desks, with half again for jitter) sends one request on its own, as long as it sent less than
 * that equal share in the last minute. So a dead holder (until the others elect a new one) or a holder that
 * grants nothing leaves a desk its equal share: what no coordination would give it at best.
 */
export interface OfficeBudget extends RequestBudget {
  /** This desk's requests of the last minute. */
  readonly used: number;
  readonly ownCeiling: number;
  /** Requests sent without a lease while in an office (the holder silent for an equal share's wait). */
  readonly sentOnOwn: number;
  /** What it may send a minute now: its share in an office, its own ceiling alone. */
  readonly share: number;
  role(): Role;
  /** The desk, once started (its places then come from the office). */
  attach(desk: Desk): void;
  /** The desk left: alone again from now on. */
  detach(): void;
}

interface Lease {
  left: number;
  until: number;
  probe: boolean;
}

/*
 * Alone, no pacing beyond the sliding window: the whole free window at once (up to the ceiling in any 60 s),
 * then the window's steady rate, which is what the single desk's budget gave before the office. Paced at the
 * ceiling's rate after a burst of 8 (the earlier choice, for whoever else spends the address), a drop waited
 * for a service that would take it at once: 100 small files took 50.6 s, 16.9x `xargs -P4 curl`
 * (docs/office.md "A drop goes up at once").
 */
/** In an office, a burst of this many places of leases used, then this desk's ceiling's steady rate. */
const LEASE_BURST = 8;
/**
 * Joining (before discovery has had its say), the first places at once, then one as one of two desks: a drop's
 * first file by `sync DIR --once` needs `GET /me` twice (the command's default bucket, the engine's account),
 * the listing and its upload, and paced at the equal share they came 1 s apart. Four fit in the ceiling's
 * margin under the service's limit (115 of 120) if an office is already full.
 */
export const JOIN_BURST = 4;
/**
 * Alone, at most this many requests sent and not yet answered (for at most `UNCONFIRMED_MS` each: an upload
 * in progress was past the service's rate check long ago). Desks that cannot see each other meet the
 * address's limit together; each then pays one refused request to learn it, not one per request it had on
 * the way. In a burst the next request leaves as the answer comes: a small file's takes milliseconds.
 */
const ALONE_IN_FLIGHT = 1;
const UNCONFIRMED_MS = 1_000;
/** In an office, an ask not answered by a grant in this long is sent again (a datagram may be lost). */
const ASK_ANSWER_MS = 250;
/**
 * Alone, a 429 cuts at least to this (requests a minute; halved by each further cut within minutes, aimd.ts):
 * a tenth of the service's 120. A desk that started late and had sent little when the address was found
 * full would otherwise be cut to almost nothing, and starve while desks it cannot see keep their parts.
 */
const ALONE_FLOOR = 12;
/** Alone, a 429 when everything this desk sent in the window went in less than this says nothing of its part. */
const BURST_MEASURE_MS = 10_000;

/**
 * In an open office, a holder's word can lower the ceiling of this desk's own word (its equal share when no
 * lease comes) to this part of its own ceiling, no lower. Its own ceiling itself (bench:office hidden-6 in the
 * simulation: 8 refused of 458, not 3) let desks that were not refused send past an honest office's cut; half
 * is under any cut an honest office keeps while this desk's own 429s do not say the same, and a desk's own
 * 429s lower its own ceiling, and this with it, where the address really is that crowded.
 */
const OWN_WORD_FLOOR = 0.5;

/** Refusals in a minute, in an open office, that make a desk plan alone for DISTRUST_MS. */
const DISTRUST_REFUSALS = 3;
const DISTRUST_MS = 5 * 60_000;
/** A grant sent before the holder heard of this desk's 429 may still arrive this long after. */
const TOLD_SLACK_MS = 1_000;

/** The ceiling of a budget set to 0 (unlimited): it takes no place from the office anyway. */
const OFFICE_AIMD_UNLIMITED = 10_000;

/** Equal-share wait: half again the interval of one place at ceiling / desks, at least a second. */
export function equalShareWaitMs(ceiling: number, desks: number): number {
  return Math.max(1_000, (1.5 * WINDOW_MS) / Math.max(0.1, ceiling / Math.max(1, desks)));
}

export function createOfficeBudget(opts: {
  /**
   * true: a desk of an office, attached with `attach` once it has started (until then it is joining);
   * false: the office is left (Settings) and the desk plans alone with the same AIMD.
   */
  office: boolean;
  perMinute: number;
  backgroundShare?: number;
  now?: () => number;
  random?: () => number;
}): OfficeBudget {
  const now = opts.now ?? monotonicNow;
  const random = opts.random ?? Math.random;
  let desk: Desk | null = null;
  let perMinute = opts.perMinute;
  let backgroundShare = opts.backgroundShare ?? DEFAULT_BACKGROUND_SHARE;
  const aimd: Aimd = createAimd({ ...OFFICE_AIMD, max: perMinute || OFFICE_AIMD_UNLIMITED }, now());
  const lanes = createLaneQueue(() => pump());
  const sent = createLaneWindow();
  let leases: Lease[] = [];
  let notBefore = 0;
  /** Alone, after a 429 without Retry-After: one request at a time until one is answered. */
  let ownProbe: { attempt: number; out: boolean } | null = null;
  /** In an office: a probe lease was used and its answer is awaited. */
  let probeOut = false;
  let lastPlaceAt = Number.NEGATIVE_INFINITY;
  /** When this desk last asked the holder and no grant has come since. */
  let askedAt = Number.NEGATIVE_INFINITY;
  /** Requests sent on this desk's own word while in an office (the holder was silent too long). */
  let onOwn = 0;
  /**
   * The last cut of its own window was made alone (or joining): it measured this desk's part of the address
   * beside desks it could not see. Once it sees them in an office, that part is the holder's to share: the
   * cut is forgotten, or a desk briefly alone while starting up keeps a fraction of the address for ten
   * minutes (bench:office kill-holder-6: the last desk sent its last files at 25 a minute, alone).
   */
  let cutAlone = false;
  /**
   * When this desk was last in an office. A desk alone within a minute of it (the others left, or stopped
   * answering) shares the service's window with the office's last minute, which its own window does not
   * hold: a 429 then measures the address, not this desk's part of it, and is cut as in an office. Cut
   * under its own few requests, the last desk of bench:office once-12 (the holder, alone once the others
   * were done) went to the floor of 12 a minute and took 50 s for its last 5 files.
   */
  let inOfficeAt = Number.NEGATIVE_INFINITY;
  function onRole(): void {
    if (roleNow().kind === 'alone') return;
    inOfficeAt = now();
    if (cutAlone) {
      cutAlone = false;
      aimd.forget(now());
    }
  }
  /** The end of the last pause seen (the office's or this desk's own). */
  let pausedTill = 0;
  /**
   * Since when the office's pause (a peer's word) has lasted without a break: a desk waits on it no longer than
   * its equal share's wait, then sends on its own word as when the holder is silent. A stranger claiming to
   * hold the office with `pauseMs: 60000` each second stalled every desk (issue 32).
   */
  let pausedSince: number | null = null;
  let waitingFrom: number | null = null;
  /** Leases used at this desk's own pace: a small burst, then its ceiling's steady rate (issue 32). */
  let tokens = LEASE_BURST;
  let refilledAt = now();
  function refill(t: number, cap: number): void {
    tokens = Math.min(LEASE_BURST, tokens + ((t - refilledAt) * cap) / WINDOW_MS);
    refilledAt = t;
  }
  /** When each request not yet answered was sent (oldest first). */
  let unconfirmed: number[] = [];
  /**
   * The same, kept until answered (or a minute old): an answer moves its request's place in `sent` to the
   * answer's time. The service counts a request from its arrival, and a desk's first requests arrive seconds
   * after their places were taken while twelve processes start on two cores; counted from the grant, the
   * office's first burst left this window (and the holder's, through `used`) up to 4 s before the service's,
   * and the office was refused as its window first filled (bench:office once-12: 2 refused at 63.7 s, 115
   * in the window by grant time, 120 by arrival).
   */
  let inFlight: number[] = [];
  const confirm = () => {
    unconfirmed.shift();
    const t = now();
    inFlight = inFlight.filter((at) => at > t - WINDOW_MS);
    const at = inFlight.shift();
    if (at !== undefined) sent.restamp(at, t);
  };

  let left = !opts.office;
  // Until its desk has started (or failed to: `detach`), a desk of an office is joining: on a loaded machine
  // the start can take seconds, and a desk alone meanwhile would spend a burst the others cannot see.
  /**
   * An open office whose holder let this desk be refused again and again (DISTRUST_REFUSALS in a minute) is
   * not doing a holder's job: a stranger's grants, most likely (bench:office stranger-open-6: 155 refused of
   * 378, each desk sending at its own ceiling on forged leases). The desk plans alone until then, as desks
   * that cannot see each other do. An honest office is refused about once a desk beside a hidden consumer.
   */
  let distrustUntil = Number.NEGATIVE_INFINITY;
  let refusedInOffice: number[] = [];
  /**
   * The last 429 with a Retry-After this desk told its holder, and until when: an honest holder pauses the
   * office until then, and grants nothing meanwhile (its grants say the pause). A grant that says no pause
   * more than a second later (a stranger's) is a holder not doing its job: the desk plans alone at once.
   */
  let told: { at: number; until: number } | null = null;
  function distrust(t: number): void {
    distrustUntil = t + DISTRUST_MS;
    refusedInOffice = [];
    told = null;
    leases = [];
    // Its 429s measure its own part of the address from now on, as a desk's that cannot see the others, the
    // one that made it distrust the office first (cut as in an office then): a desk alone learns its part
    // with one refusal, not two (bench:office stranger-open-6: 12 refused of 378, two a desk).
    inOfficeAt = Number.NEGATIVE_INFINITY;
    aimd.forget(t);
    aimd.limited(t, { used: sent.size, floor: ALONE_FLOOR });
    cutAlone = true;
  }
  const roleNow = (): Role => {
    if (desk && !desk.keyed && now() < distrustUntil) return { kind: 'alone', joining: false };
    return desk?.role() ?? { kind: 'alone', joining: !left };
  };

  function demand(): Demand {
    const firstSync = lanes.firstIn('sync');
    return {
      now: firstSync + lanes.waitingIn('user'),
      sync: lanes.waitingIn('sync') - firstSync,
      bg: lanes.waitingIn('background'),
    };
  }

  function expire(t: number): void {
    sent.expire(t);
    leases = leases.filter((l) => l.left > 0 && l.until > t);
  }

  const held = () => leases.reduce((n, l) => n + l.left, 0);

  let officeSince: { holder: string; at: number } | null = null;
  function inOfficeSince(role: Extract<Role, { holderId: string }>, t: number): number {
    if (officeSince?.holder !== role.holderId) officeSince = { holder: role.holderId, at: t };
    return officeSince.at;
  }

  function grant(lane: Lane, t: number): void {
    sent.add(t, lane);
    unconfirmed.push(t);
    inFlight.push(t);
    lastPlaceAt = t;
    lanes.release(lane);
    waitingFrom = lanes.waiting > 0 ? t : null;
  }

  function pump(): void {
    lanes.cancelLater();
    for (;;) {
      const lane = lanes.next();
      if (!lane) {
        waitingFrom = null;
        return;
      }
      const t = now();
      waitingFrom ??= t;
      if (perMinute === 0) {
        grant(lane, t);
        continue;
      }
      aimd.tick(t);
      expire(t);
      if (t < notBefore) {
        lanes.later(notBefore - t);
        return;
      }
      const cap = aimd.value;
      const busyUntil = sent.busyUntil(cap, lane, backgroundShare);
      if (busyUntil !== null) {
        lanes.later(busyUntil - t);
        return;
      }
      const role = roleNow();
      if (role.kind === 'alone') {
        if (ownProbe) {
          if (ownProbe.out) return;
          ownProbe.out = true;
        } else if (role.joining) {
          // The first moments: as one of two desks until discovery has had its say, after a first few at once.
          const gap = equalShareWaitMs(cap, 2) / 1.5;
          if (sent.size >= JOIN_BURST && t - lastPlaceAt < gap) {
            lanes.later(lastPlaceAt + gap - t);
            return;
          }
        } else {
          // The free window at once, but one request on its way at a time: desks that cannot see each other
          // then meet the service's limit one request at a time, each paying one refusal, not a burst each.
          unconfirmed = unconfirmed.filter((at) => at > t - UNCONFIRMED_MS);
          if (unconfirmed.length >= ALONE_IN_FLIGHT) {
            lanes.later(unconfirmed[0]! + UNCONFIRMED_MS - t);
            return;
          }
        }
        grant(lane, t);
        continue;
      }
      const probeLease = leases.find((l) => l.probe && l.left > 0);
      if (probeLease) {
        probeLease.left--;
        probeOut = true;
        grant(lane, t);
        continue;
      }
      // Asked even while paused: the holder sends its probe to a desk that wants to send. Not again while the
      // answer to an ask may be on its way: the holder grants each ask's want afresh, and a fresh drop's places
      // go out at once (holder.ts burstRoom), so asks sent before a grant arrived were granted again (a drop of
      // 100 got 115 places, 15 spent for nothing).
      const unleased = !leases.some((l) => !l.probe && l.left > 0);
      if (unleased && t - askedAt >= ASK_ANSWER_MS) {
        askedAt = t;
        desk!.ask(demand(), held());
      }
      // Unanswered, the ask goes again then (with the demand of that moment).
      const askAgainIn = unleased ? Math.max(1, askedAt + ASK_ANSWER_MS - t) : Number.POSITIVE_INFINITY;
      // A keyed office's word is its desks' (docs/office.md, threat model): its pause and its ceiling are
      // taken as they are. An open office's may be a stranger's: it can lower what this desk is granted, not
      // what it may send on its own word (its equal share by its own ceiling, the office's pause included).
      const open = !desk!.keyed;
      const paused = t < role.pauseUntil;
      if (paused) {
        pausedSince ??= t;
        pausedTill = Math.max(pausedTill, role.pauseUntil);
      } else pausedSince = null;
      const lease = paused ? undefined : leases.find((l) => !l.probe && l.left > 0);
      if (lease) {
        // Used at this desk's own pace (a small burst, then its ceiling's steady rate), whatever it was
        // granted: a stranger's grants of many places sent 119 requests in 5 s (issue 32).
        // A fresh drop's places (the sync lane's first waiters, holder.ts burstRoom) go at once, as alone: a
        // stranger's grants can then hurry what a person just dropped, no more than a desk alone sends it.
        refill(t, cap);
        const drop = lane === 'sync' && lanes.firstIn('sync') > 0;
        if (tokens < 1 && !drop) {
          lanes.later((1 - tokens) / (cap / WINDOW_MS));
          return;
        }
        if (tokens >= 1) tokens -= 1;
        lease.left--;
        grant(lane, t);
        continue;
      }
      // On its own only while behind what its equal share would have given it: a holder whose window is
      // full, or that is making up for this desk's head start, owes it nothing yet. In an open office, by at
      // least half its own ceiling (what its own 429s allow) when the holder says less (a stranger's
      // `ceiling: 1` stalled every desk), and no longer paused on the office's word than that share's wait.
      if (paused && !open) {
        lanes.later(Math.min(role.pauseUntil - t, 1_000));
        return;
      }
      const ceiling = open ? Math.max(role.ceiling, cap * OWN_WORD_FLOOR) : role.ceiling;
      const wait = equalShareWaitMs(ceiling, role.desks);
      // Time this desk's own 429 paused it is not time waited on the holder; the office's pause (a peer's
      // word) counts from its start: a desk waits on it at most its equal share's wait.
      const since = Math.max(lastPlaceAt, waitingFrom, pausedSince ?? pausedTill, notBefore);
      // What an equal share would have given this desk since it joined (a minute at most).
      const owed = (ceiling / role.desks) * Math.min(1, (t - inOfficeSince(role, t)) / WINDOW_MS);
      if (t - since >= wait && sent.size < owed) {
        onOwn++;
        grant(lane, t);
        continue;
      }
      lanes.later(
        Math.min(
          since + wait - t,
          paused ? Math.max(1, role.pauseUntil - t) : Number.POSITIVE_INFINITY,
          askAgainIn,
        ),
      );
      return;
    }
  }

  /**
   * Alone, this desk's part of the address when refused: what it sent in the window, or nothing known when all
   * of that went in the last few seconds (a burst). Desks that cannot see each other each spend the free window
   * at once and the address fills within seconds: who got how much of it is a race (which process started a
   * second earlier, which answered faster), not a part. Cut under what each sent, the simulation's blocked-6
   * kept parts of 11 to 31 for minutes, and the last desk was done 2.45x after the first; from the floor, every
   * such desk climbs alike.
   */
  function partAlone(t: number): number {
    const used = sent.size;
    if (used === 0) return 0;
    // The oldest place leaves the window first: the window is busy (at `used` places) until then.
    const oldest = sent.busyUntil(used, 'sync', 1)! - WINDOW_MS;
    return t - oldest < BURST_MEASURE_MS ? 0 : used;
  }

  function attach(d: Desk): void {
    desk = d;
    d.report(() => {
      expire(now());
      // Places held and not yet used are spent too (a granted place counts as sent): said as used, or a holder
      // that counts this desk's own-word or earlier holders' requests beyond its places misses these.
      return { demand: demand(), used: sent.size + held() };
    });
    d.onGrant((g: Grant) => {
      askedAt = Number.NEGATIVE_INFINITY;
      const t = now();
      const role = roleNow();
      if (told && !d.keyed && role.kind === 'follower') {
        if (t >= told.until) told = null;
        else if (t - told.at > TOLD_SLACK_MS && role.pauseUntil <= t) return distrust(t);
      }
      // Never more places held than a lease's most (a replayed or forged grant adds nothing beyond them).
      const n = Math.min(g.n, Math.max(0, LEASE_MAX - held()));
      if (n === 0 && !g.probe) return;
      leases.push({ left: Math.max(n, g.probe ? 1 : 0), until: now() + g.ttlMs, probe: g.probe });
      pump();
    });
    d.onChange(() => {
      onRole();
      pump();
    });
    onRole();
    pump();
  }

  const budget: OfficeBudget = withLanes(
    {
      deferUntil(epochMs) {
        notBefore = Math.max(notBefore, epochMs);
        pump();
      },
      rateLimited(retryAfterMs) {
        const t = now();
        expire(t);
        const role = roleNow();
        confirm();
        if (role.kind !== 'alone' && !desk?.keyed) {
          refusedInOffice = [...refusedInOffice.filter((at) => at > t - WINDOW_MS), t];
          if (refusedInOffice.length >= DISTRUST_REFUSALS) distrust(t);
          else if (
            role.kind === 'follower' &&
            retryAfterMs !== undefined &&
            retryAfterMs >= 2 * TOLD_SLACK_MS
          )
            told = { at: t, until: t + retryAfterMs };
        }
        // Alone (and not just out of an office), the cut goes under what this desk really sent (the address was
        // full with that much of it), and not under a floor: desks that cannot see each other then settle near their real parts at once
        // instead of after many refusals, and a late one is not starved (aimd.ts).
        const ownPart = role.kind === 'alone' && t - inOfficeAt >= WINDOW_MS;
        if (aimd.limited(t, ownPart ? { used: partAlone(t), floor: ALONE_FLOOR } : {})) cutAlone = ownPart;
        const wasProbe = probeOut || ownProbe?.out === true;
        probeOut = false;
        leases = [];
        if (retryAfterMs !== undefined) {
          ownProbe = null;
          // Jitter: desks that got the same Retry-After do not all come back in the same millisecond.
          notBefore = Math.max(notBefore, t + retryAfterMs + Math.round(random() * 1_000));
        } else if (role.kind === 'alone') {
          const attempt = ownProbe ? ownProbe.attempt + 1 : 1;
          ownProbe = { attempt, out: false };
          notBefore = Math.max(notBefore, t + probeDelayMs(attempt, random));
        } else {
          // The holder pauses everyone and probes; this desk waits at least the first step on its own word.
          notBefore = Math.max(notBefore, t + probeDelayMs(1, random));
        }
        if (role.kind !== 'alone') desk?.limited(retryAfterMs ?? null, wasProbe);
        pump();
      },
      replied(status) {
        if (status === 429) return;
        confirm();
        aimd.answered(now());
        if (probeOut) {
          probeOut = false;
          desk?.probed();
        }
        if (ownProbe?.out) {
          ownProbe = null;
          notBefore = 0;
        }
        pump();
      },
      hold() {
        const t = now();
        // This desk's own back-off after its 429 (the office's pause too, if longer): the service's word.
        const role = roleNow();
        const office = role.kind === 'alone' ? 0 : role.pauseUntil;
        if (t < notBefore) return { kind: 'rate-limited' as const, forMs: Math.max(notBefore, office) - t };
        // The office's pause alone (a peer was refused, the holder probes): this desk waits the office's turn.
        return t < office ? { kind: 'office-wait' as const, forMs: office - t } : null;
      },
      configure(p) {
        if (!Number.isFinite(p.perMinute) || p.perMinute < 0)
          throw new RangeError('perMinute must be 0 or more');
        perMinute = Math.floor(p.perMinute);
        if (p.backgroundShare !== undefined) backgroundShare = p.backgroundShare;
        if (perMinute > 0) {
          // This desk's own cap only: the office's ceiling is the holder's (a desk's setting is its own).
          aimd.setMax(perMinute);
        }
        pump();
      },
      get perMinute() {
        return perMinute === 0 ? 0 : Math.max(1, Math.floor(budget.share));
      },
      get backgroundShare() {
        return backgroundShare;
      },
      get used() {
        expire(now());
        return sent.size;
      },
      get sentOnOwn() {
        return onOwn;
      },
      get ownCeiling() {
        aimd.tick(now());
        return aimd.value;
      },
      get share() {
        aimd.tick(now());
        const role = roleNow();
        if (role.kind === 'alone') return aimd.value;
        return Math.min(aimd.value, role.share > 0 ? role.share : role.ceiling / role.desks);
      },
      role: roleNow,
      attach,
      detach() {
        desk = null;
        left = true;
        leases = [];
        pump();
      },
    } satisfies Omit<OfficeBudget, keyof LaneReadings>,
    lanes,
    sent,
    () => expire(now()),
  );
  return budget;
}
