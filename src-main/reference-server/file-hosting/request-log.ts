/**
 * How many API requests reached a route, by method and route (`GET /files`, `GET /files/:id`...),
 * refused ones (401, 429) included: what a client really spent, for tests and benchmarks (`GET /__admin/v1/requests`). Counts
 * only, in memory: a restart starts from zero.
 */
export function requestLog() {
  const counts = new Map<string, number>();
  let refused = 0;
  return {
    /** A request answered 429 (counted by `count` too): `rate_limited` of the snapshot. */
    refused(): void {
      refused++;
    },
    count(method: string, route: string | undefined): void {
      const key = `${method} ${route ?? 'unknown'}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    },
    snapshot(): { total: number; rate_limited: number; by_route: Record<string, number> } {
      let total = 0;
      for (const n of counts.values()) total += n;
      return { total, rate_limited: refused, by_route: Object.fromEntries([...counts].sort()) };
    },
    reset(): void {
      counts.clear();
      refused = 0;
    },
  };
}

export type RequestLog = ReturnType<typeof requestLog>;
