/**
 * Retry policy: the one place that says how long to wait before trying again, and how to read a
 * server's Retry-After. Modelled on rclone's lib/pacer: exponential growth with "equal jitter" (half
 * fixed, half random) so that many calls failing together do not come back together, a cap, a number
 * of attempts, and the server's word (Retry-After) wins whenever it asks for longer.
 *
 * Every retrying caller uses it: the file client's idempotent calls, the sync engine's uploads, deletes
 * and journal reconciliation, and the knowledge-entry sync loop.
 */
export interface BackoffPolicy {
  /** The wait before the first retry (attempt 1), before jitter. */
  baseMs: number;
  /** No wait grows past this, before Retry-After. */
  capMs: number;
  /** Attempts before the caller gives up (a file is left FAILED for the user to retry). */
  maxAttempts: number;
}

/** Uploads and deletes of the sync engine: 2 s, 4 s, 8 s ... up to 5 min, ten attempts. */
export const SYNC_BACKOFF: BackoffPolicy = { baseMs: 2_000, capMs: 5 * 60_000, maxAttempts: 10 };
/** The file client's own quick retries of idempotent calls (GET, DELETE): 0.5 s, 1 s, 2 s ... 8 s. */
export const CALL_BACKOFF: Pick<BackoffPolicy, 'baseMs' | 'capMs'> = { baseMs: 500, capMs: 8_000 };
/** The knowledge-entry sync loop of one bot: 2 s up to a minute, never giving up (edits wait in the outbox). */
export const KB_SYNC_BACKOFF: BackoffPolicy = {
  baseMs: 2_000,
  capMs: 60_000,
  maxAttempts: Number.POSITIVE_INFINITY,
};
/** When a 429 carries no (readable) Retry-After: the wait before anyone on the budget sends again. */
export const DEFAULT_RATE_LIMIT_WAIT_MS = 15_000;

/**
 * The wait before retry number `attempt` (1 for the first retry). Jittered between half and all of
 * `base * 2^(attempt-1)` (capped); a server's Retry-After wins when longer.
 */
export function backoffDelayMs(
  attempt: number,
  policy: Pick<BackoffPolicy, 'baseMs' | 'capMs'>,
  retryAfterMs?: number,
  random: () => number = Math.random,
): number {
  const exp = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  const jittered = Math.round(exp / 2 + random() * (exp / 2));
  return Math.max(jittered, retryAfterMs ?? 0);
}

/**
 * Retry-After (RFC 9110 10.2.3) as milliseconds from `now`: delay-seconds ("120") or an HTTP-date
 * ("Wed, 21 Oct 2015 07:28:00 GMT"). Undefined when absent or unreadable, so the caller's default applies;
 * a date in the past is 0.
 */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // Only a date with letters: Date.parse would read "-5" or "1e3" as a year.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
