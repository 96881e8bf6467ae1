import {
  FILE_API_BUDGET_DEFAULT_PER_MINUTE,
  KB_API_BUDGET_DEFAULT_PER_MINUTE,
} from '../../../src-shared/domain/limits';
import { DEFAULT_RATE_LIMIT_WAIT_MS } from './retry-policy';

/**
 * Who a request is for, in the order places are granted: the sync engine's uploads and deletes first,
 * then what a person asked for (a refresh, a delete from the Files view, /me), then background listing
 * (the remote index's walk). A waiting request of a higher lane always goes before a lower one.
 */
export type Lane = 'sync' | 'user' | 'background';
export const LANES: readonly Lane[] = ['sync', 'user', 'background'];

/** Background's default share of the window: a 100,000-file walk then takes hours, never the budget. */
export const DEFAULT_BACKGROUND_SHARE = 0.05;

/**
 * At most `perMinute` requests in any 60-second window, kept below the service's per-address limit and
 * shared by every call to that address (uploads, listing, /me, retries), after rclone's pacer: retries
 * count, and a 429's Retry-After wins.
 *
 * A sliding window of grant times rather than a token bucket: a bucket must keep rate + burst under the
 * limit, so either a drop of 30 files waits half a second per file (small burst) or a long run goes at
 * half speed (large burst). The window gives both: a burst up to the whole allowance at once, then
 * exactly the allowance per minute, which is also how the service counts.
 *
 * Lanes: places go to the highest lane with a waiter, first come first served within it. Background is
 * also capped at `backgroundShare` of the window (at least one request), whether or not others wait:
 * priority alone is not enough, since a walk that took the whole window while the engine was between
 * uploads would hold the next upload for up to a minute. With the cap, uploads always find at least
 * 95% of the window free of background requests.
 */
export interface RequestBudget {
  /**
   * Resolves when a request of `lane` (default 'user') may be sent; rejects with the signal's reason
   * when aborted while waiting. `first`: ahead of the lane's other waiters (the sync engine's
   * "Upload now" and files just dropped, docs/sync-engine.md "Priority").
   */
  take(signal?: AbortSignal, lane?: Lane, first?: boolean): Promise<void>;
  /**
   * A 429's Retry-After: nobody on this budget sends before `epochMs`, and after it the budget starts
   * from a full window (requests resume at the steady rate, not in a burst): the service counted
   * requests this budget did not see (another program at the same address).
   */
  deferUntil(epochMs: number): void;
  /**
   * The service answered 429 to a request granted by this budget, with its Retry-After if it said one.
   * Called by the pacer on every 429 (pacer.ts), by nothing else. Contract: no take() on this budget
   * resolves before `retryAfterMs` (DEFAULT_RATE_LIMIT_WAIT_MS when undefined) has passed, since the
   * pacer's next attempt of that request waits only for its token. The sliding window defers itself
   * (deferUntil); a budget leased from elsewhere may also shrink its rate. The office budget
   * (docs/office.md) keeps the first part and, with no Retry-After, replaces the 15 s by its probe: one
   * request after 2, 4, 8 ... 60 s, the others only once a probe is answered.
   */
  rateLimited(retryAfterMs: number | undefined): void;
  /** Any reply other than 429 to a request this budget granted: a clean period for the ceiling, a probe answered. */
  replied(status: number): void;
  /** Changes the allowance in place (0 = unlimited) and background's share; waiters keep their place. */
  configure(opts: { perMinute: number; backgroundShare?: number }): void;
  readonly perMinute: number;
  readonly backgroundShare: number;
  /** Requests waiting for their turn now (shown in the UI as "the request budget in use"). */
  readonly waiting: number;
  /** Requests of one lane waiting now. */
  waitingIn(lane: Lane): number;
  /** Places one lane holds in the current window (what the cap counts). */
  grantedIn(lane: Lane): number;
}

export const DEFAULT_FILE_API_PER_MINUTE = FILE_API_BUDGET_DEFAULT_PER_MINUTE;
export const DEFAULT_KB_API_PER_MINUTE = KB_API_BUDGET_DEFAULT_PER_MINUTE;

const WINDOW_MS = 60_000;

export interface Waiter {
  resolve(): void;
  reject(reason: unknown): void;
  /** Asked to go ahead of its lane ("Upload now", a fresh drop). */
  first: boolean;
  signal?: AbortSignal;
  onAbort?: () => void;
}

/**
 * A request waiting in its lane's queue until `pump` grants it (first: at the front); aborting its signal
 * takes it out and rejects with the signal's reason. Shared by every budget (the office's too).
 */
export function waitInQueue(
  queue: Waiter[],
  signal: AbortSignal | undefined,
  first: boolean,
  pump: () => void,
): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
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
}

/** Takes the next waiter of a queue out and lets it go (its abort listener removed). */
export function release(queue: Waiter[]): void {
  const w = queue.shift()!;
  if (w.signal && w.onAbort) w.signal.removeEventListener('abort', w.onAbort);
  w.resolve();
}

/** A place in the window: when, and for whom ('deferred' stands for the service's own count after a 429). */
interface Grant {
  at: number;
  lane: Lane | 'deferred';
}

export function createRequestBudget(opts: {
  perMinute: number;
  backgroundShare?: number;
  now?: () => number;
}): RequestBudget {
  const now = opts.now ?? Date.now;
  let perMinute = 0;
  let backgroundShare = DEFAULT_BACKGROUND_SHARE;
  /** Grants within the last window, oldest first. */
  let granted: Grant[] = [];
  let notBefore = 0;
  const queues: Record<Lane, Waiter[]> = { sync: [], user: [], background: [] };
  let timer: ReturnType<typeof setTimeout> | null = null;

  const setRate = (p: { perMinute: number; backgroundShare?: number }) => {
    if (!Number.isFinite(p.perMinute) || p.perMinute < 0) throw new RangeError('perMinute must be 0 or more');
    const share = p.backgroundShare ?? backgroundShare;
    if (!Number.isFinite(share) || share <= 0 || share > 1)
      throw new RangeError('backgroundShare must be above 0 and at most 1');
    perMinute = Math.floor(p.perMinute);
    backgroundShare = share;
  };

  const backgroundCap = () => Math.max(1, Math.floor(perMinute * backgroundShare));
  const waitingCount = () => queues.sync.length + queues.user.length + queues.background.length;
  const highestWaiting = (): Lane | null => LANES.find((l) => queues[l].length > 0) ?? null;

  function expire(t: number): void {
    let drop = 0;
    while (drop < granted.length && granted[drop]!.at <= t - WINDOW_MS) drop++;
    if (drop > 0) granted = granted.slice(drop);
  }

  function countIn(lane: Lane): number {
    let n = 0;
    for (const g of granted) if (g.lane === lane) n++;
    return n;
  }

  /** When the lane's oldest place in the window frees (the n-th from the end, for a cap of n). */
  function laneFreesAt(lane: Lane, cap: number): number {
    const mine = granted.filter((g) => g.lane === lane);
    return mine[mine.length - cap]!.at + WINDOW_MS;
  }

  function pump(): void {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    for (;;) {
      const lane = highestWaiting();
      if (lane === null) return;
      const t = now();
      if (t < notBefore) {
        schedule(notBefore - t);
        return;
      }
      if (perMinute === 0) {
        grant(lane);
        continue;
      }
      expire(t);
      if (granted.length >= perMinute) {
        // The oldest grant in the window leaves it first; one place frees then.
        schedule(granted[granted.length - perMinute]!.at + WINDOW_MS - t);
        return;
      }
      if (lane === 'background') {
        const cap = backgroundCap();
        if (countIn('background') >= cap) {
          schedule(laneFreesAt('background', cap) - t);
          return;
        }
      }
      granted.push({ at: t, lane });
      grant(lane);
    }
  }

  function grant(lane: Lane): void {
    release(queues[lane]);
  }

  function schedule(ms: number): void {
    // Not unref'd: the timer only runs while someone waits, and a pending promise alone does not keep
    // Node alive, so an unref'd timer would let a waiting CLI exit mid-run.
    timer = setTimeout(pump, Math.max(1, ms));
  }

  function deferUntil(epochMs: number): void {
    if (epochMs <= notBefore) return;
    notBefore = epochMs;
    // A full window ending at the deadline, spread evenly: places free one by one at the steady rate.
    if (perMinute > 0) {
      const step = WINDOW_MS / perMinute;
      granted = Array.from({ length: perMinute }, (_, i) => ({
        at: epochMs - WINDOW_MS + (i + 1) * step,
        lane: 'deferred' as const,
      }));
    }
    pump();
  }

  setRate(opts);

  const budget: RequestBudget = {
    take(signal, lane = 'user', first = false) {
      return waitInQueue(queues[lane], signal, first, pump);
    },
    deferUntil,
    rateLimited(retryAfterMs) {
      deferUntil(now() + (retryAfterMs ?? DEFAULT_RATE_LIMIT_WAIT_MS));
    },
    replied() {},
    configure(p) {
      setRate(p);
      pump();
    },
    get perMinute() {
      return perMinute;
    },
    get backgroundShare() {
      return backgroundShare;
    },
    get waiting() {
      return waitingCount();
    },
    waitingIn: (lane) => queues[lane].length,
    grantedIn(lane) {
      expire(now());
      return countIn(lane);
    },
  };
  return budget;
}

const registry = new Map<string, RequestBudget>();

/**
 * Makes the file API budget of an origin when this process is a desk of an office (office/join.ts): set
 * before the first client of that origin is made; null again when the desk leaves.
 */
export type OfficeBudgetMaker = (origin: string, perMinute: number) => RequestBudget;
let officeMaker: OfficeBudgetMaker | null = null;

/** Turns the office on (a maker) or off (null) for file API budgets made from now on. */
export function setOfficeBudgetMaker(maker: OfficeBudgetMaker | null): void {
  officeMaker = maker;
}

/** Forgets the file API budget of an origin (the desk that owned it left; the next client gets a new one). */
export function forgetBudget(baseUrl: string, kind: 'files' | 'kb'): void {
  registry.delete(`${kind} ${originOf(baseUrl)}`);
}

/** The one budget of an address and API: every client of that address shares it. */
export function budgetFor(
  baseUrl: string,
  kind: 'files' | 'kb',
  opts?: { perMinute?: number; backgroundShare?: number },
): RequestBudget {
  const key = `${kind} ${originOf(baseUrl)}`;
  let budget = registry.get(key);
  if (!budget) {
    const perMinute =
      opts?.perMinute ?? (kind === 'files' ? DEFAULT_FILE_API_PER_MINUTE : DEFAULT_KB_API_PER_MINUTE);
    budget =
      kind === 'files' && officeMaker
        ? officeMaker(originOf(baseUrl), perMinute)
        : createRequestBudget({
            perMinute,
            ...(opts?.backgroundShare !== undefined ? { backgroundShare: opts.backgroundShare } : {}),
          });
    registry.set(key, budget);
  } else if (opts?.perMinute !== undefined || opts?.backgroundShare !== undefined) {
    budget.configure({
      perMinute: opts.perMinute ?? budget.perMinute,
      ...(opts.backgroundShare !== undefined ? { backgroundShare: opts.backgroundShare } : {}),
    });
  }
  return budget;
}

export function originOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).origin;
  } catch {
    return baseUrl;
  }
}
