/**
 * A sliding one-minute window per key (the bot's client: the documents put the limit "per client").
 * Only admitted requests count, so a client that is told to wait gets in again once the oldest of its
 * last `limit` requests is a minute old.
 */
export function minuteLimiter(limitPerMinute: number, now: () => number) {
  const WINDOW_MS = 60_000;
  const hits = new Map<number, number[]>();
  return {
    limit: limitPerMinute,
    /** Counts the request and returns null when admitted; otherwise the seconds to wait (Retry-After). */
    take(key: number): number | null {
      if (limitPerMinute === 0) return null;
      const t = now();
      const recent = (hits.get(key) ?? []).filter((at) => at > t - WINDOW_MS);
      if (recent.length >= limitPerMinute) {
        hits.set(key, recent);
        return Math.max(1, Math.ceil((recent[0]! + WINDOW_MS - t) / 1000));
      }
      recent.push(t);
      hits.set(key, recent);
      return null;
    },
  };
}

export type MinuteLimiter = ReturnType<typeof minuteLimiter>;
