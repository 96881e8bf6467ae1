import type { Result } from '../../../src-shared/errors';
import type { ApiError } from './api-error';
import { type Clock, realClock } from './clock';
import type { Lane, RequestBudget } from './request-budget';
import { type BackoffPolicy, backoffDelayMs } from './retry-policy';

/**
 * The pacer: the one retry loop of the core, after rclone's lib/pacer (`Call(fn)`, where fn answers
 * retry or not). A caller says what one attempt is; the pacer counts attempts, takes each attempt's
 * place from the request budget (its token half), tells the budget of every 429, sleeps between
 * attempts on its clock (abortably), and gives up after the policy's attempts. No caller counts,
 * sleeps or defers the budget itself, so a change of how the app retries is a change here and in the
 * policy table (retry-policy.ts).
 *
 * Timers that must outlive a call (the engine's offline probe and pause poll, a KB bot's next round)
 * and rows whose retry time is stored in SQLite (FAILED uploads, DELETING rows, the trash) keep their
 * own state machine and ask `backoffDelayMs` with a policy of the same table for the wait.
 */

/** What one attempt came to: done (a success, or a failure that another attempt will not change), or retry. */
export type Attempt<T> =
  | { done: true; value: T }
  | {
      done: false;
      value: T;
      /** The server's Retry-After: the wait is at least this. */
      retryAfterMs?: number | undefined;
      /** The service answered 429: the budget is told (once per 429), and its hold is the wait. */
      rateLimited?: boolean;
    };

export const done = <T>(value: T): Attempt<T> => ({ done: true, value });

export const retry = <T>(
  value: T,
  o: { retryAfterMs?: number | undefined; rateLimited?: boolean } = {},
): Attempt<T> => ({ done: false, value, ...o });

/**
 * The usual verdict on a file-API result: a `retry` reaction is worth another attempt (network,
 * timeout, 5xx, 429), except a cancelled call; everything else is done.
 */
export function retryOnApiError<T>(r: Result<T, ApiError>): Attempt<Result<T, ApiError>> {
  if (r.ok || r.error.reaction !== 'retry' || r.error.code === 'ABORTED') return done(r);
  return retry(r, { retryAfterMs: r.error.retryAfterMs, rateLimited: r.error.status === 429 });
}

/** The token half: what the pacer takes a place from before each attempt and tells of each 429. */
export type PacerBudget = Pick<RequestBudget, 'take' | 'rateLimited'>;

export interface PacerOptions {
  policy: BackoffPolicy;
  /**
   * The request budget, asked before every attempt and never kept: the shared budget of the address
   * (`budgetFor(baseUrl, kind)`), which a budget leased from elsewhere may replace between two calls.
   * Without one the pacer takes no token: a loop around a client that takes its own.
   */
  budget?: () => PacerBudget;
  clock?: Clock;
  random?: () => number;
}

export interface CallOptions {
  /** Aborts a wait for a token or a sleep between attempts: the call rejects with its reason at once. */
  signal?: AbortSignal | undefined;
  /** The budget's lane each attempt waits in. */
  lane?: Lane | undefined;
  /** Ahead of the lane's other waiters (an upload asked for now). */
  first?: boolean | undefined;
  /** Attempts in all, instead of the policy's (1: no retry, such as an upload the journal settles). */
  maxAttempts?: number | undefined;
}

export interface Pacer {
  /**
   * Runs `fn` (given the attempt's number, from 1) until it is done or the attempts are used up, and
   * resolves with its last value. Rejects with the signal's reason when aborted while waiting, and
   * with what `fn` threw (a thrown error is not retried: a failure worth retrying is a value).
   */
  call<T>(fn: (attempt: number) => Promise<Attempt<T>>, o?: CallOptions): Promise<T>;
  /** The wait after failed attempt number `attempt` (the same arithmetic `call` sleeps by). */
  delayMs(attempt: number, retryAfterMs?: number): number;
  readonly policy: BackoffPolicy;
}

export function createPacer(opts: PacerOptions): Pacer {
  const { policy } = opts;
  const clock = opts.clock ?? realClock;
  const random = opts.random ?? Math.random;
  const delayMs = (attempt: number, retryAfterMs?: number) =>
    backoffDelayMs(attempt, policy, retryAfterMs, random);

  return {
    policy,
    delayMs,
    async call(fn, o = {}) {
      const max = o.maxAttempts ?? policy.maxAttempts;
      for (let attempt = 1; ; attempt++) {
        const budget = opts.budget?.();
        if (budget) await budget.take(o.signal, o.lane, o.first);
        else o.signal?.throwIfAborted();
        const a = await fn(attempt);
        if (a.done) return a.value;
        if (a.rateLimited) budget?.rateLimited(a.retryAfterMs);
        if (attempt >= max) return a.value;
        // The budget holds every request of the address until Retry-After (its contract): the next
        // token is the wait, and this request keeps its lane's order rather than sleeping beside it.
        if (a.rateLimited && budget) continue;
        await clock.sleep(delayMs(attempt, a.retryAfterMs), o.signal);
      }
    },
  };
}
