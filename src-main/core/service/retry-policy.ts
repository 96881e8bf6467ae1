import type { BackoffPolicy } from '../../../src-shared/domain/backoff';

export { type BackoffPolicy, backoffDelayMs, exponentialMs } from '../../../src-shared/domain/backoff';

/**
 * Retry policy: the table of how long each caller waits before trying again (the delay function itself
 * is src-shared/domain/backoff.ts, shared with the renderer), and how to read a server's Retry-After.
 * The pacer (pacer.ts) runs the loops that sleep; the engine's timers and its rows' stored retry times
 * take their waits from the same function with a policy of this table. Changing how the app retries is
 * a change here and in pacer.ts, nowhere else.
 */

/** Uploads and deletes of the sync engine: 2 s, 4 s, 8 s ... up to 5 min, ten attempts. */
export const SYNC_BACKOFF: BackoffPolicy = { baseMs: 2_000, capMs: 5 * 60_000, maxAttempts: 10 };
/** The file client's own quick retries of idempotent calls (GET, DELETE): 0.5 s, 1 s, 2 s ... 8 s. */
export const CALL_BACKOFF: BackoffPolicy = { baseMs: 500, capMs: 8_000, maxAttempts: 3 };
/** The knowledge-entry sync loop of one bot: 2 s up to a minute, never giving up (edits wait in the outbox). */
export const KB_SYNC_BACKOFF: BackoffPolicy = {
  baseMs: 2_000,
  capMs: 60_000,
  maxAttempts: Number.POSITIVE_INFINITY,
};
/** Probes of /me while offline: 2 s, 4 s, 8 s ... capped at a minute (a few requests of the budget a minute at most). */
export const OFFLINE_PROBE_BACKOFF: BackoffPolicy = {
  baseMs: 2_000,
  capMs: 60_000,
  maxAttempts: Number.POSITIVE_INFINITY,
};
/** `import-urls`: a line refused for a passing reason (429, storage) is sent again, four sends in all. */
export const IMPORT_LINE_BACKOFF: BackoffPolicy = { ...CALL_BACKOFF, maxAttempts: 4 };
/** A bulk delete's file that got no answer: sent again after 5 s, 10 s, 20 s ... a minute, until the job stops. */
export const BULK_DELETE_BACKOFF: BackoffPolicy = {
  baseMs: 5_000,
  capMs: 60_000,
  maxAttempts: Number.POSITIVE_INFINITY,
};

/**
 * A desk's pull from its lead relay that failed (the relay down, the network gone): 1 s, 2 s, 4 s ...
 * capped at a minute, never giving up (a relay back up is noticed within a minute).
 */
export const RELAY_PULL_BACKOFF: BackoffPolicy = {
  baseMs: 1_000,
  capMs: 60_000,
  maxAttempts: Number.POSITIVE_INFINITY,
};

/**
 * The /me poll while the account refuses uploads (402): the first after about 2 s, each next one up to
 * twice as long, up to `capMs` (the engine's `pausePollMs`, 10 s) for as long as the pause lasts: a
 * top-up is seen within 10 s after a minute or a day (issue 18; it was a minute), for about 8 requests
 * a minute (jittered between 5 and 10 s), 7% of the budget.
 */
export const pausePollBackoff = (capMs: number): BackoffPolicy => ({
  baseMs: 2_000,
  capMs,
  maxAttempts: Number.POSITIVE_INFINITY,
});

/**
 * The engine asking again by itself (which account this is at start, the journal's listing): the
 * engine's own backoff base, never more than a minute apart.
 */
export const engineAskAgain = (backoff: Pick<BackoffPolicy, 'baseMs' | 'capMs'>): BackoffPolicy => ({
  baseMs: backoff.baseMs,
  capMs: Math.min(60_000, backoff.capMs),
  maxAttempts: Number.POSITIVE_INFINITY,
});

/**
 * The index keeper's refresh that failed (offline, the service down): asked again after about twice the
 * interval, then up to four times it.
 */
export const indexRefreshBackoff = (everyMs: number): BackoffPolicy => ({
  baseMs: 2 * everyMs,
  capMs: 4 * everyMs,
  maxAttempts: Number.POSITIVE_INFINITY,
});

/**
 * The shared sandbox (shared-sandbox.ts): taking over when the process that ran it stopped, 5 tries about a
 * second apart (another process may be taking over at the same time: its door then answers).
 */
export const SANDBOX_TAKE_OVER_BACKOFF: BackoffPolicy = { baseMs: 1_000, capMs: 2_000, maxAttempts: 5 };

/**
 * The sandbox's port held at start: another process may be starting it right now (its door opens once its
 * key is minted), looked for about 5 s in all, soon at first.
 */
export const SANDBOX_PORT_WAIT_BACKOFF: BackoffPolicy = { baseMs: 100, capMs: 400, maxAttempts: 18 };

/** A folder's scan that failed, tried again: the engine's own base, never more than a minute apart. */
export const scanAgainBackoff = (backoff: Pick<BackoffPolicy, 'baseMs'>): BackoffPolicy => ({
  baseMs: backoff.baseMs,
  capMs: 60_000,
  maxAttempts: Number.POSITIVE_INFINITY,
});

/** Looking again for a synced folder that vanished (an unplugged disk): from a second to a minute apart. */
export const FOLDER_LOOK_AGAIN_BACKOFF: BackoffPolicy = {
  baseMs: 1_000,
  capMs: 60_000,
  maxAttempts: Number.POSITIVE_INFINITY,
};

/** The office's one probe after a 429 without Retry-After (office/aimd.ts): 2 s, 4 s, 8 s ... up to 60 s. */
export const OFFICE_PROBE_BACKOFF: BackoffPolicy = {
  baseMs: 2_000,
  capMs: 60_000,
  maxAttempts: Number.POSITIVE_INFINITY,
};

/** When a 429 carries no (readable) Retry-After: the wait before anyone on the budget sends again. */
export const DEFAULT_RATE_LIMIT_WAIT_MS = 15_000;

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
