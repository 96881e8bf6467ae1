/**
 * Who holds the office's budget: of the desks alive, the one that started first (start time, then instance
 * id, so that two desks never disagree on a tie). A desk is alive while its heartbeats arrive: every second,
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

export function earlier(a: Candidate, b: Candidate): boolean {
  return a.start < b.start || (a.start === b.start && a.id < b.id);
}

/** The holder among `self` and the peers alive: the earliest start, then the lowest id. */
export function chooseHolder(self: Candidate, alive: readonly Candidate[]): Candidate {
  let best = self;
  for (const c of alive) if (earlier(c, best)) best = c;
  return best;
}

export function isAlive(lastHeard: number, now: number): boolean {
  return now - lastHeard <= PEER_TIMEOUT_MS;
}

/**
 * The term to follow: a holder's heartbeat or lease of a term below the highest seen is stale (that holder
 * lost its place and does not know yet); a new holder takes the highest seen plus one.
 */
export interface Terms {
  readonly highest: number;
  /** Notes a term heard; false when it is below the highest (a stale holder's message). */
  hear(term: number): boolean;
  /** The term this desk opens when it becomes the holder. */
  open(): number;
}

export function createTerms(): Terms {
  let highest = 0;
  return {
    get highest() {
      return highest;
    },
    hear(term) {
      if (term < highest) return false;
      highest = term;
      return true;
    },
    open() {
      highest += 1;
      return highest;
    },
  };
}
