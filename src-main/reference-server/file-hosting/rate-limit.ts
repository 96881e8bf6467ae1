/**
 * Requests per address over the last 60 seconds of real time (a sliding window, so a burst at a minute's edge
 * cannot pass twice the limit). Refused requests are not counted: a client that retries after Retry-After gets in.
 */
export interface RateLimiter {
  /** null when the request may pass; otherwise the whole seconds to wait. */
  take(address: string, now?: number): number | null;
}

const WINDOW_MS = 60_000;

export function rateLimiter(perMinute: number): RateLimiter {
  if (perMinute <= 0) return { take: () => null };
  const seen = new Map<string, number[]>();
  return {
    take(address, now = Date.now()) {
      let times = seen.get(address);
      if (!times) {
        times = [];
        seen.set(address, times);
      }
      while (times.length > 0 && times[0]! <= now - WINDOW_MS) times.shift();
      if (times.length >= perMinute) return Math.max(1, Math.ceil((times[0]! + WINDOW_MS - now) / 1000));
      times.push(now);
      return null;
    },
  };
}
