import {
  FILE_API_BUDGET_DEFAULT_PER_MINUTE,
  KB_API_BUDGET_DEFAULT_PER_MINUTE,
} from '../../../src-shared/domain/limits';
import { monotonicNow } from './clock';
import { createLaneQueue, createLaneWindow, type Lane, type LaneReadings, withLanes } from './lane-queue';
import { DEFAULT_RATE_LIMIT_WAIT_MS } from './retry-policy';

export { LANES, type Lane } from './lane-queue';

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
   * A 429's Retry-After: nobody on this budget sends before `atMs` (on the budget's own clock, `now`:
   * monotonic unless a test injects one), and after it the budget starts
   * from a full window (requests resume at the steady rate, not in a burst): the service counted
   * requests this budget did not see (another program at the same address).
   */
  deferUntil(atMs: number): void;
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
  /**
   * What keeps every request of this budget back now, and for how much longer (ms), or null: this desk's
   * own 429's Retry-After (`rate-limited`), or, in an office, the office's pause after a peer's 429
   * (`office-wait`). The app says it as a hold and the estimate of time left counts it (issue 31).
   */
  hold(): BudgetHold | null;
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

/** A hold of the whole budget: what it is, and how long it lasts from now (ms, on no particular clock). */
export interface BudgetHold {
  kind: 'rate-limited' | 'office-wait';
  forMs: number;
}

export const DEFAULT_FILE_API_PER_MINUTE = FILE_API_BUDGET_DEFAULT_PER_MINUTE;
export const DEFAULT_KB_API_PER_MINUTE = KB_API_BUDGET_DEFAULT_PER_MINUTE;

const WINDOW_MS = 60_000;

export function createRequestBudget(opts: {
  perMinute: number;
  backgroundShare?: number;
  /** The window's clock: monotonic by default, so that a step of the wall clock delays no request. */
  now?: () => number;
}): RequestBudget {
  const now = opts.now ?? monotonicNow;
  let perMinute = 0;
  let backgroundShare = DEFAULT_BACKGROUND_SHARE;
  /** Grants within the last window ('deferred' stands for the service's own count after a 429). */
  const granted = createLaneWindow<Lane | 'deferred'>();
  let notBefore = 0;
  const lanes = createLaneQueue(() => pump());

  const setRate = (p: { perMinute: number; backgroundShare?: number }) => {
    if (!Number.isFinite(p.perMinute) || p.perMinute < 0) throw new RangeError('perMinute must be 0 or more');
    const share = p.backgroundShare ?? backgroundShare;
    if (!Number.isFinite(share) || share <= 0 || share > 1)
      throw new RangeError('backgroundShare must be above 0 and at most 1');
    perMinute = Math.floor(p.perMinute);
    backgroundShare = share;
  };

  function pump(): void {
    lanes.cancelLater();
    for (;;) {
      const lane = lanes.next();
      if (lane === null) return;
      const t = now();
      if (t < notBefore) {
        lanes.later(notBefore - t);
        return;
      }
      if (perMinute === 0) {
        lanes.release(lane);
        continue;
      }
      granted.expire(t);
      const busyUntil = granted.busyUntil(perMinute, lane, backgroundShare);
      if (busyUntil !== null) {
        lanes.later(busyUntil - t);
        return;
      }
      granted.add(t, lane);
      lanes.release(lane);
    }
  }

  function deferUntil(atMs: number): void {
    if (atMs <= notBefore) return;
    notBefore = atMs;
    // A full window ending at the deadline, spread evenly: places free one by one at the steady rate.
    if (perMinute > 0) {
      const step = WINDOW_MS / perMinute;
      granted.reset(
        Array.from({ length: perMinute }, (_, i) => ({
          at: atMs - WINDOW_MS + (i + 1) * step,
          lane: 'deferred' as const,
        })),
      );
    }
    pump();
  }

  setRate(opts);

  const own = {
    deferUntil,
    rateLimited(retryAfterMs) {
      deferUntil(now() + (retryAfterMs ?? DEFAULT_RATE_LIMIT_WAIT_MS));
    },
    replied() {},
    hold() {
      const t = now();
      return t < notBefore ? { kind: 'rate-limited' as const, forMs: notBefore - t } : null;
    },
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
  } satisfies Omit<RequestBudget, keyof LaneReadings>;
  return withLanes(own, lanes, granted, () => granted.expire(now()));
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

/**
 * Forgets every budget: a process that goes on to talk to other services (a test worker between test
 * files) must not meet an old budget again where a port is reused, with its window, cuts and rate.
 */
export function forgetAllBudgets(): void {
  registry.clear();
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
