/**
 * The one delay function of every retry in the app, main process and renderer alike: exponential
 * growth with "equal jitter" (half fixed, half random) so that many calls failing together do not come
 * back together, a cap, and the server's word (Retry-After) wins whenever it asks for longer. After
 * rclone's lib/pacer. Pure, randomness injected: the core's pacer (core/service/pacer.ts) and the
 * renderer's WebSocket reconnect (src-renderer/api/ws-core.ts) both call it.
 */
export interface BackoffPolicy {
  /** The wait before the first retry (attempt 1), before jitter. */
  baseMs: number;
  /** No wait grows past this, before Retry-After. */
  capMs: number;
  /** Attempts in all before the caller gives up (Infinity: never). */
  maxAttempts: number;
}

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
  const exp = exponentialMs(attempt, policy);
  const jittered = Math.round(exp / 2 + random() * (exp / 2));
  return Math.max(jittered, retryAfterMs ?? 0);
}

/**
 * The growth alone, before jitter: `base * 2^(attempt-1)`, capped. Every back-off of the app grows by it;
 * the office's probe (office/aimd.ts) adds its own jitter (only later, never sooner, than this).
 */
export function exponentialMs(attempt: number, policy: Pick<BackoffPolicy, 'baseMs' | 'capMs'>): number {
  return Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
}
