/**
 * Who a request is for, in the order places are granted: the sync engine's uploads and deletes first,
 * then what a person asked for (a refresh, a delete from the Files view, /me), then background listing
 * (the remote index's walk). A waiting request of a higher lane always goes before a lower one.
 */
export type Lane = 'sync' | 'user' | 'background';
export const LANES: readonly Lane[] = ['sync', 'user', 'background'];

const WINDOW_MS = 60_000;

interface Waiter {
  resolve(): void;
  reject(reason: unknown): void;
  /** Asked to go ahead of its lane ("Upload now", a fresh drop). */
  first: boolean;
  signal?: AbortSignal;
  onAbort?: () => void;
}

/**
 * The waiting side of a request budget: a queue a lane, the highest lane served first, first come first
 * served within it. Every budget has one (the single address's and an office desk's); where places come
 * from is the budget's own `pump`, called whenever a waiter arrives or gives up.
 */
export interface LaneQueue {
  /**
   * Resolves once `release` lets this request go; rejects with the signal's reason when aborted while
   * waiting. `first`: ahead of the lane's other waiters.
   */
  take(signal?: AbortSignal, lane?: Lane, first?: boolean): Promise<void>;
  /** The highest lane with a waiter, or null when nobody waits. */
  next(): Lane | null;
  /** Lets the next waiter of a lane go (its abort listener removed); the lane must have one. */
  release(lane: Lane): void;
  /** Requests waiting now, all lanes. */
  readonly waiting: number;
  waitingIn(lane: Lane): number;
  /** Waiters of a lane that asked to go first. */
  firstIn(lane: Lane): number;
  /** Calls the budget's `pump` again in `ms` (at least 1 ms), replacing the call planned before. */
  later(ms: number): void;
  /** Drops the planned call (`pump` is running now). */
  cancelLater(): void;
}

/** What every request budget reads of its lanes (RequestBudget's waiting side). */
export interface LaneReadings {
  take: LaneQueue['take'];
  readonly waiting: number;
  waitingIn(lane: Lane): number;
  /** Places one lane holds in the current window (what background's cap counts). */
  grantedIn(lane: Lane): number;
}

/**
 * Puts the waiting side on a budget: `take`, `waiting` and `waitingIn` from its queue, `grantedIn` from
 * its window (`expire` first brings the window, and whatever else the budget keeps, to now).
 */
export function withLanes<T extends object>(
  budget: T,
  lanes: LaneQueue,
  window: LaneWindow<Lane | string>,
  expire: () => void,
): T & LaneReadings {
  return Object.defineProperties(budget, {
    take: { value: lanes.take, enumerable: true },
    waiting: { get: () => lanes.waiting, enumerable: true },
    waitingIn: { value: lanes.waitingIn, enumerable: true },
    grantedIn: {
      value: (lane: Lane) => {
        expire();
        return window.countIn(lane);
      },
      enumerable: true,
    },
  }) as T & LaneReadings;
}

export function createLaneQueue(pump: () => void): LaneQueue {
  const queues: Record<Lane, Waiter[]> = { sync: [], user: [], background: [] };
  let timer: ReturnType<typeof setTimeout> | null = null;
  const cancelLater = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  return {
    take(signal, lane = 'user', first = false) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      const queue = queues[lane];
      return new Promise<void>((resolve, reject) => {
        const w: Waiter = { resolve, reject, first };
        if (signal) {
          w.signal = signal;
          w.onAbort = () => {
            const i = queue.indexOf(w);
            if (i >= 0) queue.splice(i, 1);
            reject(signal.reason);
            pump();
          };
          signal.addEventListener('abort', w.onAbort, { once: true });
        }
        if (first) queue.unshift(w);
        else queue.push(w);
        pump();
      });
    },
    next: () => LANES.find((l) => queues[l].length > 0) ?? null,
    release(lane) {
      const w = queues[lane].shift()!;
      if (w.signal && w.onAbort) w.signal.removeEventListener('abort', w.onAbort);
      w.resolve();
    },
    get waiting() {
      return queues.sync.length + queues.user.length + queues.background.length;
    },
    waitingIn: (lane) => queues[lane].length,
    firstIn: (lane) => queues[lane].filter((w) => w.first).length,
    later(ms) {
      cancelLater();
      // Not unref'd: the timer only runs while someone waits, and a pending promise alone does not keep
      // Node alive, so an unref'd timer would let a waiting CLI exit mid-run. Rounded up: a place frees at
      // its time, not a fraction of a millisecond before it.
      timer = setTimeout(pump, Math.max(1, Math.ceil(ms)));
    },
    cancelLater,
  };
}

/**
 * The places a budget granted in the last 60 s, oldest first, each with its lane (or a mark of the
 * budget's own, as the single budget's 'deferred' for the service's count after a 429).
 */
export interface LaneWindow<L extends string = Lane> {
  /** Drops the places 60 s old or older at `t`. */
  expire(t: number): void;
  add(at: number, lane: L): void;
  /** Replaces every place (the single budget's full window after a Retry-After). */
  reset(places: { at: number; lane: L }[]): void;
  /**
   * Moves the oldest place taken at `from` to `to` (its answer came then), keeping the window in order:
   * the service counts a request from when it arrived, which may be seconds after its place was taken.
   */
  restamp(from: number, to: number): void;
  readonly size: number;
  countIn(lane: L): number;
  /**
   * Null when a place for `lane` is free now: fewer than `cap` places in the window, and for background
   * fewer than its `share` of `cap` (at least one). Else when the one that blocks it leaves the window.
   */
  busyUntil(cap: number, lane: L, share: number): number | null;
}

export function createLaneWindow<L extends string = Lane>(): LaneWindow<L> {
  let places: { at: number; lane: L }[] = [];
  const countIn = (lane: L) => places.reduce((n, p) => n + (p.lane === lane ? 1 : 0), 0);
  return {
    expire(t) {
      let drop = 0;
      while (drop < places.length && places[drop]!.at <= t - WINDOW_MS) drop++;
      if (drop > 0) places = places.slice(drop);
    },
    add(at, lane) {
      places.push({ at, lane });
    },
    reset(next) {
      places = next;
    },
    restamp(from, to) {
      const i = places.findIndex((p) => p.at === from);
      if (i < 0 || to <= from) return;
      const [p] = places.splice(i, 1);
      let j = places.length;
      while (j > 0 && places[j - 1]!.at > to) j--;
      places.splice(j, 0, { at: to, lane: p!.lane });
    },
    get size() {
      return places.length;
    },
    countIn,
    busyUntil(cap, lane, share) {
      // The oldest place in the window leaves it first; one place frees then.
      if (places.length >= cap) return places[places.length - cap]!.at + WINDOW_MS;
      if (lane !== 'background') return null;
      const bgCap = Math.max(1, Math.floor(cap * share));
      const mine = places.filter((p) => p.lane === 'background');
      return mine.length < bgCap ? null : mine[mine.length - bgCap]!.at + WINDOW_MS;
    },
  };
}
