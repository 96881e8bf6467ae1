import type { Socket } from 'node:net';

/**
 * How many API requests reached a route, by method and route (`GET /files`, `GET /files/:id`...),
 * refused ones (401, 429) included, and how many bytes of request (headers and body) the server read
 * for them: what a client really spent and really sent, for tests and benchmarks
 * (`GET /__admin/v1/requests`; a benchmark checks with it that an upload it times was sent). Counts
 * only, in memory: a restart starts from zero.
 */
export function requestLog() {
  const counts = new Map<string, number>();
  const bytes = new Map<string, number>();
  // What each connection had read when its previous request was answered: a request's bytes are what
  // the connection read from there to this request's answer (HTTP/1.1 sends one request at a time).
  const readBefore = new WeakMap<Socket, number>();
  const keyOf = (method: string, route: string | undefined) => `${method} ${route ?? 'unknown'}`;
  let refused = 0;
  return {
    /** A request answered 429 (counted by `count` too): `rate_limited` of the snapshot. */
    refused(): void {
      refused++;
    },
    count(method: string, route: string | undefined): void {
      const key = keyOf(method, route);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    },
    /** Call once a request is answered: adds what its connection read for it to its route. */
    answered(method: string, route: string | undefined, socket: Socket | null | undefined): void {
      if (!socket) return;
      const now = socket.bytesRead;
      const read = now - (readBefore.get(socket) ?? 0);
      readBefore.set(socket, now);
      const key = keyOf(method, route);
      bytes.set(key, (bytes.get(key) ?? 0) + read);
    },
    snapshot(): {
      total: number;
      rate_limited: number;
      by_route: Record<string, number>;
      bytes_by_route: Record<string, number>;
    } {
      let total = 0;
      for (const n of counts.values()) total += n;
      return {
        total,
        rate_limited: refused,
        by_route: Object.fromEntries([...counts].sort()),
        bytes_by_route: Object.fromEntries([...bytes].sort()),
      };
    },
    reset(): void {
      counts.clear();
      bytes.clear();
      refused = 0;
    },
  };
}

export type RequestLog = ReturnType<typeof requestLog>;
