/**
 * The watch for deletes made elsewhere, shared by the desks of one account in an office
 * (docs/remote-index.md, "An office shares the watch"). Each desk says its last page-1 answer; a desk
 * skips its own read while a peer's is fresh and agrees with its index, and the desks take turns: when
 * the freshest answer grows stale, the desk whose own read is the oldest reads (ties: the lowest id).
 * Two desks then read one page a 45 s period between them, not one each.
 *
 * A peer's word is advice. Whatever peers say, a desk reads by itself at least every 2 periods (90 s), so
 * a forged "nothing changed" delays its notice of a delete by one period at most; and a word that differs
 * from its index (a delete or an upload seen elsewhere) makes it read at once, but never sooner than one
 * period after its own last read: a stranger's flood costs a desk its own 45 s cadence, no more.
 */

/** A page-1 answer: the listing's total and a hash of its newest id. */
export interface WatchAnswer {
  total: number;
  newest: string | null;
}

/** A peer's answer, its time on this desk's monotonic clock. */
export interface PeerAnswer extends WatchAnswer {
  from: string;
  readAt: number;
}

/** What the keeper needs of the office for one account. */
export interface IndexWatch {
  /** This desk's id (the tie-break of the turn). */
  readonly self: string;
  /** The newest id as said on the wire (a hash: peers compare, never read). */
  hash(newest: string | null): string | null;
  /** Tells the peers this desk's latest answer, its newest id hashed (null: none yet). */
  say(answer: (WatchAnswer & { readAt: number }) | null): void;
  /** The live peers' answers for this account. */
  peers(): PeerAnswer[];
  /** Called when a peer says a newer answer; returns the unsubscribe. */
  onWord(fn: () => void): () => void;
  /** The monotonic clock the answers' times are on. */
  now(): number;
}

/** If a desk whose turn it is has not read this long after its turn, the next in line reads. */
export const TURN_GRACE_MS = 5_000;

export type WatchStep =
  | { kind: 'read'; why: 'own' | 'cap' | 'differs' | 'turn' | 'late' }
  | { kind: 'wait'; ms: number };

/**
 * What a desk does now. `ownAt`: its last own read (null: none); `mine`: its index's count and newest hash
 * (null: not complete, read by itself); `every`: the period (45 s).
 */
export function nextWatchStep(o: {
  now: number;
  self: string;
  ownAt: number | null;
  mine: WatchAnswer | null;
  peers: PeerAnswer[];
  every: number;
}): WatchStep {
  const { now, every } = o;
  if (o.ownAt === null || o.mine === null) return { kind: 'read', why: 'own' };
  const ownAt = o.ownAt;
  const capAt = ownAt + 2 * every;
  if (now >= capAt) return { kind: 'read', why: 'cap' };
  const mine = o.mine;
  // Only answers read after this desk's own say anything it does not know already.
  const newer = o.peers.filter((p) => p.readAt > ownAt && p.readAt <= now);
  if (newer.some((p) => p.total !== mine.total || p.newest !== mine.newest)) {
    if (now >= ownAt + every) return { kind: 'read', why: 'differs' };
    return { kind: 'wait', ms: ownAt + every - now };
  }
  const freshest = Math.max(ownAt, ...newer.map((p) => p.readAt));
  const staleAt = freshest + every;
  if (now < staleAt) return { kind: 'wait', ms: Math.min(staleAt, capAt) - now };
  // Stale: whose turn? The desk whose own read is the oldest (a peer's last answer is its own read).
  const line = [
    { id: o.self, at: ownAt },
    ...o.peers.filter((p) => p.readAt <= now).map((p) => ({ id: p.from, at: p.readAt })),
  ].sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1));
  const place = line.findIndex((d) => d.id === o.self);
  if (place === 0) return { kind: 'read', why: 'turn' };
  // The next in line reads when the one before it has not (killed, or stalled); one grace apart each, so
  // they do not all read at once.
  const grace = Math.min(TURN_GRACE_MS, every / 6);
  const lateAt = staleAt + place * grace;
  if (now >= lateAt) return { kind: 'read', why: 'late' };
  return { kind: 'wait', ms: Math.min(lateAt, capAt) - now };
}
