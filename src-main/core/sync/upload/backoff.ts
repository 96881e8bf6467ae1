/**
 * Exponential backoff with jitter ("equal jitter": half fixed, half random), so that many files failing
 * together do not come back together; a server's Retry-After wins when it asks for longer.
 */
export interface BackoffPolicy {
  baseMs: number;
  capMs: number;
  /** Attempts before a file is left FAILED for the user to retry. */
  maxAttempts: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 2_000, capMs: 5 * 60_000, maxAttempts: 10 };

export function backoffDelayMs(
  attempt: number,
  policy: BackoffPolicy,
  retryAfterMs?: number,
  random: () => number = Math.random,
): number {
  const exp = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  const jittered = Math.round(exp / 2 + random() * (exp / 2));
  return Math.max(jittered, retryAfterMs ?? 0);
}
