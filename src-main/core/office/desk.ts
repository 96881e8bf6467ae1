import { randomBytes } from 'node:crypto';
import { monotonicNow } from '../service/clock';
import type { Discovery, Endpoint } from './discovery/discovery';
import {
  createTerms,
  decideHolder,
  HEARTBEAT_MS,
  type Heard,
  isAlive,
  MAX_TERM_JUMP,
  outranks,
  PEER_TIMEOUT_MS,
} from './election';
import { createHolder, type GrantOut, type Holder, LEASE_MAX } from './holder';
import {
  type Demand,
  type DropReason,
  decodeDatagram,
  encodeMessage,
  MAX_PEERS,
  type Message,
  type MessageOf,
  NO_DEMAND,
  type OfficeState,
  type WatchWord,
} from './protocol';
import type { Transport } from './transport';

/**
 * One desk of the office: it finds its peers (through the discoveries), says every second who it is and what
 * it wants, agrees with the others on the holder (election.ts), and either holds the office's window
 * (holder.ts) or asks the holder for leases. The request budget (office-budget.ts) is its only user: it
 * reads `role()`, asks, and receives grants. Everything a peer says is advice: the budget never waits on a
 * holder longer than its equal share would take, and its own 429s always win.
 */
/** A desk that heard no peer yet in its first moments treats itself as one of two, not as alone. */
export const JOIN_MS = 1_500;
/**
 * ... unless its discoveries found no other desk at all (the local folder read at start, mDNS's first answers):
 * then it is alone sooner, and a drop goes up at once instead of a request a second until JOIN_MS (issue 36).
 * A desk found and not heard yet (a process stalled on a loaded machine) keeps it joining for JOIN_MS.
 */
export const JOIN_ALONE_MS = 500;
/** Asks with the same content closer than this are one ask. */
const ASK_REPEAT_MS = 250;
/** A discovered endpoint that never answered is forgotten after this. */
const ENDPOINT_FORGET_MS = 30_000;
/** A line about peers' bad messages at most this often per kind: a flood of them is one line a minute. */
const NOTE_EVERY_MS = 60_000;

export type Role =
  | { kind: 'alone'; joining: boolean }
  | {
      kind: 'holder' | 'follower';
      holderId: string;
      term: number;
      desks: number;
      ceiling: number;
      share: number;
      pauseUntil: number;
    };

export interface DeskReport {
  demand: Demand;
  /** Requests sent in the last 60 s. */
  used: number;
}

export interface Grant {
  n: number;
  ttlMs: number;
  probe: boolean;
}

/** Datagrams dropped (forged, replayed, unsigned in a keyed office, malformed), by the address they came from. */
export interface Refused {
  total: number;
  /** The addresses of the most recent ones (at most REFUSED_ADDRESSES), the latest first. */
  from: { address: string; count: number; why: DropReason; lastAt: number }[];
}

export interface PeerView {
  id: string;
  name: string;
  version: string;
  share: number;
  backlog: number;
  holder: boolean;
  self: boolean;
}

export interface DeskOptions {
  scope: string;
  key: Buffer | null;
  name: string;
  version: string;
  transport: Transport;
  discoveries: Discovery[];
  /** The office's highest ceiling. */
  max: number;
  /** The monotonic clock every liveness check, lease and term runs on (monotonicNow by default). */
  now?: () => number;
  /** The wall clock, only for the start time desks of an earlier version read. */
  wallNow?: () => number;
  random?: () => number;
  id?: string;
  /** When this desk started, on `now`'s clock. */
  startedAt?: number;
  /** Where a line about what peers did wrong goes (a hostile or corrupt term), at most once a minute. */
  log?: (line: string) => void;
}

/** A message as the desk builds it: `send` adds its counter. */
type Out = Message extends infer M ? (M extends Message ? Omit<M, 'seq'> : never) : never;

/** Addresses kept in the refused count (a spoofer cycling addresses costs a bounded map). */
const REFUSED_ADDRESSES = 16;
/** Senders whose counters a desk remembers; the oldest heard is forgotten first. */
const REPLAY_SENDERS = 256;
/** In an open office, the counters remembered per sender (a replay of an older datagram is bounded anyway). */
const REPLAY_SEEN = 512;

/**
 * Replays: a keyed office drops a datagram whose counter is not above the last taken from its sender (a
 * replay, or one overtaken on the way: nothing in the office needs an old datagram, the next heartbeat comes
 * within a second). An open office cannot trust a counter (a stranger could claim a huge one in a desk's name
 * and silence that desk): it drops only a datagram whose counter it already took from that sender, so a
 * captured grant or bye is taken once.
 */
export function createReplayGuard(keyed: boolean) {
  const last = new Map<string, number>();
  const seen = new Map<string, Set<number>>();
  const touch = <V>(m: Map<string, V>, k: string, v: V) => {
    m.delete(k);
    m.set(k, v);
    if (m.size > REPLAY_SENDERS) m.delete(m.keys().next().value as string);
  };
  return {
    /** true: take it (and it is remembered); false: a replay. */
    take(from: string, seq: number): boolean {
      if (keyed) {
        if (seq <= (last.get(from) ?? 0)) return false;
        touch(last, from, seq);
        return true;
      }
      const s = seen.get(from) ?? new Set<number>();
      if (s.has(seq)) return false;
      s.add(seq);
      if (s.size > REPLAY_SEEN) s.delete(s.values().next().value as number);
      touch(seen, from, s);
      return true;
    },
  };
}

/** A peer's page-1 answer for one account, its time placed on this desk's monotonic clock. */
export interface PeerWatch {
  from: string;
  total: number;
  newest: string | null;
  readAt: number;
}

export interface Desk {
  readonly id: string;
  readonly startedAt: number;
  readonly port: number;
  readonly discoveries: readonly Discovery[];
  /** Whether the office has a key (closed to desks without it). */
  readonly keyed: boolean;
  role(): Role;
  /** Datagrams dropped so far, and from where. */
  refused(): Refused;
  /** Listeners of this desk (grants, changes) that threw: logged, counted, never the end of the process. */
  readonly listenerFailures: number;
  /** What the heartbeat says about this desk: the budget's waiters and its last minute. */
  report(fn: () => DeskReport): void;
  ask(demand: Demand, held: number): void;
  limited(retryAfterMs: number | null, probe: boolean): void;
  probed(): void;
  onGrant(fn: (g: Grant) => void): void;
  onChange(fn: () => void): void;
  /** What this desk's heartbeat adds about the accounts it watches (a `watch` message; none when empty). */
  watching(fn: () => WatchWord[]): void;
  /** Says the watch words to the live peers now (a new answer, not a second later). */
  sayWatch(): void;
  /** The live peers' last answers for an account hash. */
  watchOf(acct: string): PeerWatch[];
  /** Told when a peer says a newer answer (the account hash). */
  onWatch(fn: (acct: string) => void): void;
  peers(): PeerView[];
  close(): Promise<void>;
}

interface Peer {
  id: string;
  start: number;
  name: string;
  version: string;
  endpoint: Endpoint;
  heard: number;
  firstHeard: number;
  demand: Demand;
  used: number;
  /** The term of its last heartbeat. */
  term: number;
  follows: string | null;
  watch: Map<string, { total: number; newest: string | null; readAt: number }>;
}

export function newInstanceId(): string {
  return randomBytes(8).toString('hex');
}

/** `note(kind, line)`: the line, unless one of its kind went out in the last NOTE_EVERY_MS (then counted). */
function createNotes(log: (line: string) => void, now: () => number) {
  const kinds = new Map<string, { at: number; unsaid: number }>();
  return (kind: string, line: string) => {
    const k = kinds.get(kind);
    if (k && now() - k.at < NOTE_EVERY_MS) {
      k.unsaid++;
      return;
    }
    const more = k?.unsaid ? ` (and ${k.unsaid} more since the last such line)` : '';
    kinds.set(kind, { at: now(), unsaid: 0 });
    log(`${line}${more}`);
  };
}

export async function startDesk(o: DeskOptions): Promise<Desk> {
  const now = o.now ?? monotonicNow;
  const wallNow = o.wallNow ?? Date.now;
  const id = o.id ?? newInstanceId();
  const startedAt = o.startedAt ?? now();
  const self = { id, start: startedAt };
  const max = o.max;
  const terms = createTerms();
  const note = createNotes(o.log ?? (() => {}), now);
  const peers = new Map<string, Peer>();
  /**
   * Desks gone in the last minute (killed, or said bye), with what they last said they sent: their requests
   * stay in the service's window for a minute, and a holder elected meanwhile counts them.
   */
  const departed = new Map<string, { used: number; heard: number; start: number }>();
  const forget = (pid: string) => {
    const p = peers.get(pid);
    if (p) departed.set(pid, { used: p.used, heard: p.heard, start: p.start });
    peers.delete(pid);
  };
  /**
   * Desks this one followed only by their name in peers' heartbeats (not heard yet), since when: one named for
   * longer than a dead desk's timeout and never heard is gone (decideHolder), and the desks choose again.
   */
  const named = new Map<string, number>();
  const endpoints = new Map<string, Endpoint & { found: number }>();
  let holder: Holder | null = null;
  let myTerm = 0;
  let following: { id: string; term: number } | null = null;
  /** The last office state the holder told (absolute pause end). */
  let office: (Omit<OfficeState, 'pauseMs'> & { pauseUntil: number }) | null = null;
  let lastCeiling = max;
  let reporter: () => DeskReport = () => ({ demand: NO_DEMAND, used: 0 });
  const grantListeners: ((g: Grant) => void)[] = [];
  const changeListeners: (() => void)[] = [];
  const watchListeners: ((acct: string) => void)[] = [];
  let watchWords: () => WatchWord[] = () => [];
  let lastAsk = { at: Number.NEGATIVE_INFINITY, text: '' };
  let closed = false;
  let seq = 0;
  const replays = createReplayGuard(o.key !== null);
  const refusedFrom = new Map<string, { count: number; why: DropReason; lastAt: number }>();
  let refusedTotal = 0;
  let listenerFailures = 0;

  const send = (m: Out, to: Endpoint) => {
    if (!closed)
      o.transport.send(encodeMessage({ ...m, seq: ++seq } as Message, o.scope, o.key), to.address, to.port);
  };

  /** A datagram that changes nothing: counted by its address, said at most once a minute. */
  function refuse(from: Endpoint, why: DropReason): void {
    refusedTotal++;
    const r = refusedFrom.get(from.address);
    refusedFrom.delete(from.address);
    refusedFrom.set(from.address, { count: (r?.count ?? 0) + 1, why, lastAt: now() });
    if (refusedFrom.size > REFUSED_ADDRESSES) refusedFrom.delete(refusedFrom.keys().next().value as string);
    note(
      'refused',
      `office: dropped a datagram from ${from.address}:${from.port} (${why}); ${refusedTotal} dropped so far`,
    );
  }

  /**
   * A listener (the budget's, the app's) that throws is logged and counted, never rethrown: the desk's
   * timers and socket callbacks run with no caller to catch it, and a throw there ends the process.
   */
  function guarded(what: string, fn: () => void): void {
    try {
      fn();
    } catch (e) {
      listenerFailures++;
      note(
        `listener:${what}`,
        `office: a listener of the desk's ${what} failed (${listenerFailures} so far): ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  }
  const keyOf = (e: Endpoint) => `${e.address}:${e.port}`;

  /**
   * When a peer started, on this desk's own monotonic clock: the time its heartbeat arrived less how long it
   * said it had been up (`up`), the earliest such reading kept (a datagram's transit only makes it later).
   * No two machines' clocks are compared: the holder choice holds when a wall clock steps or machines
   * disagree. A desk of an earlier version says only its wall-clock start (`start`), read against this
   * desk's wall clock as before.
   */
  function startOf(m: MessageOf<'hb'>, t: number, known: Peer | undefined): number {
    const heard = m.up !== undefined ? t - m.up : t - Math.max(0, wallNow() - m.start);
    return known ? Math.min(known.start, heard) : heard;
  }

  function alivePeers(): Peer[] {
    const t = now();
    const alive = [...peers.values()].filter((p) => isAlive(p.heard, t));
    // At most MAX_PEERS desks count: the ones known longest.
    alive.sort((a, b) => a.firstHeard - b.firstHeard || (a.id < b.id ? -1 : 1));
    return alive.slice(0, MAX_PEERS - 1);
  }

  function changed(): void {
    for (const l of changeListeners) guarded('changes', l);
  }

  function elect(): void {
    if (closed) return;
    const t = now();
    const alive = alivePeers();
    for (const [pid, p] of peers) if (!isAlive(p.heard, t)) forget(pid);
    for (const [pid, d] of departed) if (t - d.heard >= 60_000) departed.delete(pid);
    for (const [pid, since] of named) if (peers.has(pid) || t - since >= 60_000) named.delete(pid);
    const choice = decideHolder({
      self,
      holding: holder ? myTerm : null,
      following: following?.id ?? null,
      alive,
      gone: (pid) => departed.has(pid) || t - (named.get(pid) ?? t) > PEER_TIMEOUT_MS,
    });
    const was = holder !== null;
    if (choice.kind === 'hold') {
      if (!holder) {
        myTerm = terms.open();
        following = null;
        holder = createHolder({
          max,
          now,
          send: sendGrant,
          onPause: () => {
            for (const p of alivePeers()) heartbeat(p.endpoint);
          },
          ceiling: office?.ceiling ?? lastCeiling,
          ...(o.random ? { random: o.random } : {}),
        });
        holder.members([id, ...alive.map((p) => p.id)]);
        holder.seed([
          { id, used: reporter().used, at: now(), since: startedAt },
          ...alive.map((p) => ({ id: p.id, used: p.used, at: p.heard, since: p.start })),
          ...[...departed].map(([pid, d]) => ({ id: pid, used: d.used, at: d.heard, since: d.start })),
        ]);
      } else {
        holder.members([id, ...alive.map((p) => p.id)]);
        if (terms.highest > myTerm) {
          // A desk opened a higher term while it did not hear this one (a process stalled on a loaded
          // machine elects among the few peers it heard first), and the others heard it, from it or from
          // desks that heard it; it no longer holds (a desk that holds above this one is followed instead,
          // decideHolder). This desk takes a term above and says so at once, or every desk that heard the
          // higher term drops its grants as stale for the rest of its tenure.
          myTerm = terms.open();
          for (const p of alive) heartbeat(p.endpoint);
        }
      }
    } else {
      if (holder) {
        lastCeiling = holder.ceiling;
        holder.close();
        holder = null;
      }
      if (choice.kind === 'alone') {
        following = null;
        office = null;
      } else {
        if (following?.id !== choice.id) {
          // A desk that holds said its term in the heartbeat that made it the one: asks go with it at once.
          const p = peers.get(choice.id);
          following = { id: choice.id, term: p?.follows === p?.id ? (p?.term ?? 0) : 0 };
          office = null;
        }
        if (!peers.has(choice.id) && !named.has(choice.id)) named.set(choice.id, t);
      }
    }
    // A claim, or its end, is said at once: two desks that both hold settle it within a transit, not a
    // heartbeat, and the desks that followed the one that stepped down learn whom to follow.
    if (was !== (holder !== null)) for (const p of alive) heartbeat(p.endpoint);
    changed();
  }

  function sendGrant(g: GrantOut): void {
    const grant = { n: g.n, ttlMs: g.ttlMs, probe: g.probe };
    if (g.to === id) {
      queueMicrotask(() => {
        for (const l of grantListeners) guarded('grants', () => l(grant));
      });
      return;
    }
    const p = peers.get(g.to);
    if (!p) return;
    send({ t: 'grant', from: id, term: myTerm, ...g }, p.endpoint);
  }

  function heartbeat(to: Endpoint): void {
    const r = reporter();
    send(
      {
        t: 'hb',
        from: id,
        // A follower says the highest term it heard: a stray claim that reached it and not the holder then
        // reaches the holder too, which takes a term above it (elect).
        term: holder ? myTerm : terms.highest,
        // Its start as a wall-clock time, for desks of an earlier version; `up` is what this version reads.
        start: Math.max(0, Math.round(wallNow() - (now() - startedAt))),
        up: Math.max(0, Math.round(now() - startedAt)),
        name: o.name,
        ver: o.version,
        demand: r.demand,
        used: r.used,
        holder: holder ? id : (following?.id ?? null),
        ...(holder ? { office: holder.state() } : {}),
      },
      to,
    );
  }

  function tick(): void {
    guarded('heartbeat', beatOnce);
  }

  function beatOnce(): void {
    if (closed) return;
    const t = now();
    for (const [k, e] of endpoints) if (t - e.found > ENDPOINT_FORGET_MS) endpoints.delete(k);
    elect();
    if (holder) {
      for (const p of alivePeers()) holder.heard(p.id, p.used, p.demand);
      const r = reporter();
      holder.heard(id, r.used, r.demand);
    }
    const sent = new Set<string>();
    for (const p of alivePeers()) {
      sent.add(keyOf(p.endpoint));
      heartbeat(p.endpoint);
    }
    sayWatch();
    for (const [k, e] of endpoints) if (!sent.has(k)) heartbeat(e);
  }

  function onMessage(data: Buffer, from: Endpoint): void {
    guarded('datagrams', () => take(data, from));
  }

  function take(data: Buffer, from: Endpoint): void {
    if (closed) return;
    const d = decodeDatagram(data, o.scope, o.key);
    if (!d.ok) {
      if (d.why !== 'another-office') refuse(from, d.why);
      return;
    }
    const m = d.m;
    if (!replays.take(m.from, m.seq)) {
      refuse(from, 'replayed');
      return;
    }
    if (m.from === id) {
      // Its own heartbeat come back (a discovery may offer this desk's own port) is nothing. A `bye` in its
      // name is a stranger's: refuted at once (every peer hears this desk alive).
      if (m.t === 'bye') {
        refuse(from, 'not-from-peer');
        for (const p of alivePeers()) heartbeat(p.endpoint);
      }
      return;
    }
    if (m.t === 'hb') {
      onHeartbeat(m, from);
      return;
    }
    const peer = peers.get(m.from);
    if (!peer || !isAlive(peer.heard, now())) {
      // Not a desk of this office (a bye after its timeout is the only honest case, and rare).
      refuse(from, 'not-from-peer');
      return;
    }
    switch (m.t) {
      case 'bye':
        // Only from where the desk speaks: a stranger's `bye` in its name would take a live holder out of
        // the election (two holders, the term climbing with each forged one).
        if (keyOf(from) !== keyOf(peer.endpoint)) {
          refuse(from, 'not-from-peer');
          return;
        }
        forget(m.from);
        elect();
        return;
      case 'ask':
        if (holder && m.term === myTerm) holder.ask(m.from, m.demand, m.held);
        return;
      case 'limited':
        if (holder && m.term === myTerm) holder.limited(m.from, m.retryAfterMs, m.probe);
        return;
      case 'probed':
        if (holder && m.term === myTerm) holder.probed(m.from);
        return;
      case 'grant':
        onGrantMessage(m, from);
        return;
      case 'watch':
        // From where the desk speaks only, as a bye: a word in its name from elsewhere is a stranger's.
        if (keyOf(from) !== keyOf(peer.endpoint)) {
          refuse(from, 'not-from-peer');
          return;
        }
        onWatchMessage(peer, m);
        return;
    }
  }

  function onHeartbeat(m: MessageOf<'hb'>, from: Endpoint): void {
    const t = now();
    const known = peers.get(m.from);
    if (!known && alivePeers().length >= MAX_PEERS - 1) return;
    const peer: Peer = {
      id: m.from,
      start: startOf(m, t, known),
      name: m.name,
      version: m.ver,
      endpoint: from,
      heard: t,
      firstHeard: known?.firstHeard ?? t,
      demand: m.demand,
      used: m.used,
      term: m.term,
      follows: m.holder,
      watch: known?.watch ?? new Map(),
    };
    peers.set(m.from, peer);
    endpoints.delete(keyOf(from));
    // An implausible term is not taken, but its sender still counts as a desk (alive, with its demand and
    // word), as the sender of any heartbeat, forged or not, does: its holder may be the one to follow.
    const heard = terms.hear(m.term);
    if (heard === 'implausible') implausible(m);
    if (m.office && m.holder === m.from && following?.id === m.from) fromHolder(m, m.office, heard);
    if (holder) holder.heard(m.from, m.used, m.demand);
    if (!known) {
      // A new desk: answer at once so that it learns this one without waiting a beat, then re-elect.
      heartbeat(from);
      elect();
      return;
    }
    // Another desk that holds and outranks this one: this one steps down (two desks that each found
    // themselves first, a healed partition). Or a term above this holder's was heard: it takes one above.
    // Or a peer changed whom it follows (it holds now, or stepped down): the choice may change (elect).
    const claims = m.holder === m.from;
    if (
      (holder &&
        ((claims && outranks({ id: m.from, term: m.term }, { id, term: myTerm })) ||
          terms.highest > myTerm)) ||
      known.follows !== m.holder
    ) {
      elect();
      return;
    }
    changed();
  }

  /** The heartbeat of the holder this desk follows: its term (re-anchored if it keeps to another), its office. */
  function fromHolder(m: MessageOf<'hb'>, state: OfficeState, heard: Heard): void {
    if (!following) return;
    const t = now();
    if (terms.holderSays(m.from, m.term, t))
      note('reanchor', `office: took the term ${m.term} its holder ${m.from} kept to for seconds`);
    // Of a term this desk has not taken (implausible), the office state waits until it is taken.
    if (heard === 'implausible' && m.term !== terms.highest) return;
    if (m.term < following.term) return;
    following.term = m.term;
    // Never a ceiling above this desk's own (the single address's): the holder's word is advice.
    const ceiling = Math.min(max, state.ceiling);
    office = { ...state, ceiling, pauseUntil: t + Math.min(60_000, state.pauseMs) };
    lastCeiling = ceiling;
  }

  function onGrantMessage(m: MessageOf<'grant'>, from: Endpoint): void {
    if (m.to !== id) {
      refuse(from, 'not-from-peer');
      return;
    }
    // A holder this desk does not follow (an old one, in a hand-over): honest, and dropped.
    if (!following || m.from !== following.id) return;
    const heard = terms.hear(m.term);
    if (heard === 'implausible') implausible(m);
    if (heard !== 'current' || m.term < following.term) return;
    following.term = m.term;
    const t = now();
    const ceiling = Math.min(max, m.ceiling);
    office = {
      ceiling,
      desks: m.desks,
      pauseUntil: t + Math.min(60_000, m.pauseMs),
      shares: office?.shares.filter((s) => s.id !== id).concat({ id, share: m.share }) ?? [
        { id, share: m.share },
      ],
    };
    lastCeiling = ceiling;
    // At most a lease's places (the budget also keeps what it holds under LEASE_MAX).
    const grant = { n: Math.min(m.n, LEASE_MAX), ttlMs: Math.min(m.ttlMs, 10_000), probe: m.probe };
    for (const l of grantListeners) guarded('grants', () => l(grant));
  }

  function sayWatch(): void {
    const w = watchWords().slice(0, 8);
    if (w.length === 0) return;
    for (const p of alivePeers()) send({ t: 'watch', from: id, term: terms.highest, w }, p.endpoint);
  }

  function onWatchMessage(peer: Peer, m: MessageOf<'watch'>): void {
    const t = now();
    for (const w of m.w) {
      const readAt = t - w.ageMs;
      const was = peer.watch.get(w.acct);
      // A datagram overtaken on the way says an older answer: the newer one stays.
      if (was && was.readAt >= readAt - 1_000 && was.total === w.total && was.newest === w.newest) continue;
      if (was && readAt < was.readAt) continue;
      if (peer.watch.size >= 8 && !was) continue;
      peer.watch.set(w.acct, { total: w.total, newest: w.newest, readAt });
      for (const l of watchListeners) guarded('watch', () => l(w.acct));
    }
  }

  /** A term far above any heard (hostile or corrupt): not taken, and said at most once a minute. */
  function implausible(m: Message): void {
    note(
      'implausible',
      `office: a ${m.t} from ${m.from} says term ${m.term}, more than ${MAX_TERM_JUMP} above the highest heard here (${terms.highest}): not taken (hostile, corrupt, or an office far older than this desk's view)`,
    );
  }

  function role(): Role {
    const t = now();
    const alive = alivePeers();
    if (holder) {
      const s = holder.state();
      return {
        kind: 'holder',
        holderId: id,
        term: myTerm,
        desks: s.desks,
        ceiling: s.ceiling,
        share: holder.shareOf(id),
        // No pause: 0, not `t` (a reading of the clock taken after the caller's own would look like a pause).
        pauseUntil: s.pauseMs > 0 ? t + s.pauseMs : 0,
      };
    }
    if (following && alive.length > 0) {
      // At most the desks this one hears itself: a holder's word of 32 desks would cut its equal share.
      const desks = Math.min(office?.desks ?? alive.length + 1, alive.length + 1);
      const ceiling = office?.ceiling ?? lastCeiling;
      return {
        kind: 'follower',
        holderId: following.id,
        term: following.term,
        desks,
        ceiling,
        share: office?.shares.find((s) => s.id === id)?.share ?? ceiling / desks,
        pauseUntil: office?.pauseUntil ?? 0,
      };
    }
    const found = endpoints.size > 0 || peers.size > 0;
    return { kind: 'alone', joining: t - startedAt < (found ? JOIN_MS : JOIN_ALONE_MS) };
  }

  o.transport.onMessage(onMessage);
  const beat = setInterval(tick, HEARTBEAT_MS);
  beat.unref?.();
  // The end of the joining moment is a change of role too.
  const joined = setTimeout(changed, JOIN_MS);
  joined.unref?.();
  const joinedAlone = setTimeout(changed, JOIN_ALONE_MS);
  joinedAlone.unref?.();
  const found = (e: Endpoint) => {
    const k = keyOf(e);
    if ([...peers.values()].some((p) => keyOf(p.endpoint) === k)) return;
    const isNew = !endpoints.has(k);
    endpoints.set(k, { ...e, found: now() });
    if (isNew) heartbeat(e);
  };
  await Promise.all(o.discoveries.map((d) => d.start(found)));

  return {
    id,
    startedAt,
    port: o.transport.port,
    discoveries: o.discoveries,
    keyed: o.key !== null,
    role,
    refused() {
      return {
        total: refusedTotal,
        from: [...refusedFrom].map(([address, r]) => ({ address, ...r })).sort((a, b) => b.lastAt - a.lastAt),
      };
    },
    get listenerFailures() {
      return listenerFailures;
    },
    report(fn) {
      reporter = fn;
    },
    ask(demand, held) {
      if (holder) return holder.ask(id, demand, held);
      if (!following) return;
      const p = peers.get(following.id);
      if (!p) return;
      const text = `${demand.now},${demand.sync},${demand.bg},${held}`;
      const t = now();
      if (text === lastAsk.text && t - lastAsk.at < ASK_REPEAT_MS) return;
      lastAsk = { at: t, text };
      send({ t: 'ask', from: id, term: following.term, demand, held }, p.endpoint);
    },
    limited(retryAfterMs, probe) {
      const ms = retryAfterMs === null ? null : Math.min(600_000, Math.max(0, Math.round(retryAfterMs)));
      if (holder) return holder.limited(id, ms, probe);
      const p = following ? peers.get(following.id) : undefined;
      if (p && following)
        send({ t: 'limited', from: id, term: following.term, retryAfterMs: ms, probe }, p.endpoint);
    },
    probed() {
      if (holder) return holder.probed(id);
      const p = following ? peers.get(following.id) : undefined;
      if (p && following) send({ t: 'probed', from: id, term: following.term }, p.endpoint);
    },
    onGrant(fn) {
      grantListeners.push(fn);
    },
    onChange(fn) {
      changeListeners.push(fn);
    },
    watching(fn) {
      watchWords = fn;
    },
    sayWatch() {
      guarded('watch', sayWatch);
    },
    watchOf(acct) {
      const out: PeerWatch[] = [];
      for (const p of alivePeers()) {
        const w = p.watch.get(acct);
        if (w) out.push({ from: p.id, ...w });
      }
      return out;
    },
    onWatch(fn) {
      watchListeners.push(fn);
    },
    peers() {
      const r = role();
      const shares = holder ? holder.state().shares : (office?.shares ?? []);
      const shareOf = (pid: string) => shares.find((s) => s.id === pid)?.share ?? 0;
      const mine = reporter();
      const list: PeerView[] = [
        {
          id,
          name: o.name,
          version: o.version,
          share: r.kind === 'alone' ? 0 : r.share,
          backlog: mine.demand.now + mine.demand.sync + mine.demand.bg,
          holder: r.kind === 'holder',
          self: true,
        },
      ];
      const holderId = r.kind === 'alone' ? null : r.holderId;
      for (const p of alivePeers())
        list.push({
          id: p.id,
          name: p.name,
          version: p.version,
          share: shareOf(p.id),
          backlog: p.demand.now + p.demand.sync + p.demand.bg,
          holder: p.id === holderId,
          self: false,
        });
      return list;
    },
    async close() {
      if (closed) return;
      for (const p of alivePeers())
        send({ t: 'bye', from: id, term: holder ? myTerm : (following?.term ?? 0) }, p.endpoint);
      closed = true;
      clearInterval(beat);
      clearTimeout(joined);
      clearTimeout(joinedAlone);
      holder?.close();
      holder = null;
      await Promise.all(o.discoveries.map((d) => d.close().catch(() => {})));
      await o.transport.close();
    },
  };
}
