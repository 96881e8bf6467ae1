/**
 * Requests per address, in one of two ways (`--rate-limit-mode`):
 * - `sliding` (default): over the last 60 seconds of real time (a burst at a minute's edge cannot pass twice
 *   the limit). Refused requests are not counted, and a refusal says when a place frees (Retry-After): a
 *   client that retries after it gets in.
 * - `fixed-strict`, a test aid for a stricter service than the documents promise: fixed clock minutes, every
 *   request counted, refused ones included, and no Retry-After. A client that keeps knocking stays locked
 *   out until the minute ends with it under the limit.
 */
export type RateLimitMode = 'sliding' | 'fixed-strict';
export const RATE_LIMIT_MODES: readonly RateLimitMode[] = ['sliding', 'fixed-strict'];

export type RateDecision = { ok: true } | { ok: false; retryAfterS: number | null };

export interface RateLimiter {
  take(address: string, now?: number): RateDecision;
}

const WINDOW_MS = 60_000;
const PASS: RateDecision = { ok: true };

export function rateLimiter(perMinute: number, mode: RateLimitMode = 'sliding'): RateLimiter {
  if (perMinute <= 0) return { take: () => PASS };
  return mode === 'fixed-strict' ? fixedStrict(perMinute) : sliding(perMinute);
}

function sliding(perMinute: number): RateLimiter {
  const seen = new Map<string, number[]>();
  return {
    // The monotonic clock: a window of real time, which a step of the wall clock must not stretch (the
    // sandbox runs on the desk's machine; issue 33). Fixed minutes below are the wall clock's by definition.
    take(address, now = performance.now()) {
      let times = seen.get(address);
      if (!times) {
        times = [];
        seen.set(address, times);
      }
      while (times.length > 0 && times[0]! <= now - WINDOW_MS) times.shift();
      if (times.length >= perMinute)
        return { ok: false, retryAfterS: Math.max(1, Math.ceil((times[0]! + WINDOW_MS - now) / 1000)) };
      times.push(now);
      return PASS;
    },
  };
}

function fixedStrict(perMinute: number): RateLimiter {
  const counts = new Map<string, { minute: number; n: number }>();
  return {
    take(address, now = Date.now()) {
      const minute = Math.floor(now / WINDOW_MS);
      let c = counts.get(address);
      if (!c || c.minute !== minute) {
        c = { minute, n: 0 };
        counts.set(address, c);
      }
      c.n++;
      return c.n <= perMinute ? PASS : { ok: false, retryAfterS: null };
    },
  };
}
