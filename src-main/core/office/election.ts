import { TERM_MAX } from './protocol';

/**
 * Who holds the office's budget. A desk that holds keeps holding: a desk that finds one follows it, whatever
 * its start. Only when no desk alive holds do the desks choose, by start (each desk's on its own monotonic
 * clock, then instance id): the desk up longest, so that a short `sync --once` does not hold for an app
 * that runs all day. Two desks can each find themselves first (each reads the other's start late by a
 * datagram's transit), and a desk stalled on a loaded machine can claim before it hears the holder; two
 * desks that both hold and hear each other settle it without any clock: the higher term keeps holding,
 * of equal terms the lower id (`outranks`), and both reach the same answer from what they say.
 * A desk is alive while its heartbeats arrive: every second,
 * and three missed ones (plus half a beat for delivery) make it gone. Each change of holder opens a new
 * term, one above the highest term any desk has seen: a lease of an older term is refused, so a holder that
 * was thought dead and speaks again cannot hand out places the new holder also counts.
 *
 * Pure: the desk feeds it what it heard and when.
 */
export const HEARTBEAT_MS = 1_000;
export const MISSED_HEARTBEATS = 3;
export const PEER_TIMEOUT_MS = MISSED_HEARTBEATS * HEARTBEAT_MS + HEARTBEAT_MS / 2;

export interface Candidate {
  id: string;
  start: number;
}

/**
 * Starts this close are a tie, decided by the lowest id. Each desk places the others' starts on its own
 * monotonic clock from how long they say they have been up (desk.ts), so its reading of a peer's start is
 * late by a datagram's transit: two desks started within that of each other would each find itself first.
 * With the band, they disagree only when their starts are this far apart within a transit, never when
 * started together (a script starting two commands). When they still disagree, both hold for a moment and
 * `outranks` settles it (decideHolder): the band makes that rarer, not impossible.
 */
export const START_TIE_MS = 50;

/** The holder among `self` and the peers alive: of the earliest start (within START_TIE_MS), the lowest id. */
export function chooseHolder(self: Candidate, alive: readonly Candidate[]): Candidate {
  const all = [self, ...alive];
  const first = Math.min(...all.map((c) => c.start));
  let best = self;
  let found = false;
  for (const c of all)
    if (c.start <= first + START_TIE_MS && (!found || c.id < best.id)) {
      best = c;
      found = true;
    }
  return best;
}

/** A desk that says it holds (its heartbeat names itself as the holder), with the term it holds. */
export interface Claim {
  id: string;
  term: number;
}

/**
 * Of two desks that both hold, whether `a` keeps holding over `b`: the higher term, of equal terms the lower
 * id. Both desks compute it from the same two claims, so exactly one steps down; no clock is read.
 */
export function outranks(a: Claim, b: Claim): boolean {
  return a.term > b.term || (a.term === b.term && a.id < b.id);
}

/** What a desk knows of a peer alive, for the choice of holder. */
export interface PeerSays extends Candidate {
  /** The term of its last heartbeat (a holder's: the term it holds). */
  term: number;
  /** Whom its last heartbeat says it follows (itself: it holds), or null (none yet). */
  follows: string | null;
}

/** Hold the office, follow a desk (alive, or only named by the peers: not heard yet), or neither (alone). */
export type Choice = { kind: 'hold' } | { kind: 'follow'; id: string } | { kind: 'alone' };

/**
 * The holder as this desk sees it. In order:
 * - no peer alive: alone;
 * - this desk holds: it keeps holding unless a peer that holds outranks it (then it follows the best such);
 * - peers hold: follow the one followed now if it still holds, else the one that outranks the others (the
 *   one they will settle on);
 * - no peer alive holds, but peers follow a desk this one has not heard (a holder it will hear in a moment,
 *   when its own datagrams were late or it was stalled): follow that one (of several, the lowest id), and
 *   claim nothing. `gone(id)`: a desk this one knows to be gone (timed out, said bye, or named for longer
 *   than a dead desk's timeout and never heard), whose name is then no reason to wait;
 * - else by start (chooseHolder). When the desk chosen is a peer that follows this desk (each chose the
 *   other: their readings of each other's starts disagree at the tie band's edge), the lower id of the two
 *   holds: both reach that from the same two ids.
 */
export function decideHolder(o: {
  self: Candidate;
  /** The term this desk holds, or null. */
  holding: number | null;
  following: string | null;
  alive: readonly PeerSays[];
  gone: (id: string) => boolean;
}): Choice {
  if (o.alive.length === 0) return { kind: 'alone' };
  const claims = o.alive.filter((p) => p.follows === p.id);
  const best = (list: readonly Claim[]) => list.reduce((a, b) => (outranks(b, a) ? b : a));
  if (o.holding !== null) {
    const me = { id: o.self.id, term: o.holding };
    const above = claims.filter((c) => outranks(c, me));
    return above.length > 0 ? { kind: 'follow', id: best(above).id } : { kind: 'hold' };
  }
  if (claims.length > 0) {
    const kept = claims.find((c) => c.id === o.following);
    return { kind: 'follow', id: (kept ?? best(claims)).id };
  }
  const aliveIds = new Set(o.alive.map((p) => p.id));
  const named = o.alive
    .map((p) => p.follows)
    .filter((f): f is string => f !== null && f !== o.self.id && !aliveIds.has(f) && !o.gone(f))
    .sort();
  if (named.length > 0) return { kind: 'follow', id: named[0]! };
  const chosen = chooseHolder(o.self, o.alive);
  if (chosen.id === o.self.id) return { kind: 'hold' };
  const peer = o.alive.find((p) => p.id === chosen.id);
  if (peer?.follows === o.self.id && o.self.id < peer.id) return { kind: 'hold' };
  return { kind: 'follow', id: chosen.id };
}

export function isAlive(lastHeard: number, now: number): boolean {
  return now - lastHeard <= PEER_TIMEOUT_MS;
}

/**
 * A term more than this above the highest this desk heard is implausible: not taken (desk.ts drops a grant
 * that carries one, and takes nothing from a heartbeat but that its sender is alive). Honest terms grow by
 * one per election (two for a stray claim and the holder's answer), and a running desk hears each as it
 * comes; only a desk that did not hear the office for a while jumps, a fresh one (nothing heard: 0) or one
 * cut off. 1000 covers an office that held a thousand elections since it last had no desk running (a
 * bench:office run holds a few); a desk further behind takes its holder's term after REANCHOR_MS. And a
 * forged or corrupt term cannot carry a desk to the top of the range (2^31 - 1) with one datagram.
 */
export const MAX_TERM_JUMP = 1_000;
/**
 * A desk whose holder keeps saying another term than the highest this desk heard (below it: a stray or
 * forged term the holder never heard; far above it: an office older than this desk's view), in heartbeats
 * without a break for this long, takes the holder's term. An honest holder hears a higher term through its
 * followers' heartbeats within a second or two and takes one above (desk.ts), so the refusal of a stale
 * holder's leases holds through any honest hand-over; one forged datagram is one heartbeat, never five
 * seconds of them.
 */
export const REANCHOR_MS = 5 * HEARTBEAT_MS;

/** A term heard: at or above the highest (taken), below it (a stale holder's), or implausibly far above. */
export type Heard = 'current' | 'stale' | 'implausible';

/**
 * The term to follow: a holder's heartbeat or lease of a term below the highest seen is stale (that holder
 * lost its place and does not know yet); a new holder takes the highest seen plus one.
 */
export interface Terms {
  readonly highest: number;
  /** Notes a term heard: taken when current; a stale or implausible one leaves the view as it was. */
  hear(term: number): Heard;
  /** The term this desk opens when it becomes the holder: one above the highest, at most TERM_MAX. */
  open(): number;
  /**
   * The term in a heartbeat of the holder this desk follows (after `hear`): true when it re-anchored the
   * view to it, the holder having said another term without a break for REANCHOR_MS.
   */
  holderSays(holder: string, term: number, now: number): boolean;
}

export function createTerms(): Terms {
  let highest = 0;
  /** Since when, and last heard, the followed holder says another term than `highest`. */
  let apart: { holder: string; since: number; last: number } | null = null;
  return {
    get highest() {
      return highest;
    },
    hear(term) {
      if (term < highest) return 'stale';
      if (term - highest > MAX_TERM_JUMP) return 'implausible';
      highest = term;
      return 'current';
    },
    open() {
      // At the top (reachable only by a holder's term taken after REANCHOR_MS) the top again: receivers take
      // an equal term as current, and one above would be refused by every schema.
      highest = Math.min(TERM_MAX, highest + 1);
      return highest;
    },
    holderSays(holder, term, now) {
      if (term === highest) {
        apart = null;
        return false;
      }
      // Another holder, or a break longer than a dead desk's (the holder was gone between): count anew.
      if (apart?.holder !== holder || now - apart.last > PEER_TIMEOUT_MS) {
        apart = { holder, since: now, last: now };
        return false;
      }
      apart.last = now;
      if (now - apart.since < REANCHOR_MS) return false;
      highest = term;
      apart = null;
      return true;
    },
  };
}
