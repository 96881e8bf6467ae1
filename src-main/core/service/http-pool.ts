import { Pool } from 'undici';

/** One keep-alive connection pool per service origin, shared by every client of that address. */
const pools = new Map<string, Pool>();

// Four uploads at once plus listing and /me need a few more sockets than the upload concurrency.
const CONNECTIONS_PER_ORIGIN = 8;

export function poolFor(origin: string): Pool {
  let pool = pools.get(origin);
  if (!pool || pool.closed || pool.destroyed) {
    pool = new Pool(origin, {
      connections: CONNECTIONS_PER_ORIGIN,
      pipelining: 1,
      keepAliveTimeout: 10_000,
      // The client runs its own timers (an idle watchdog for uploads); undici's would cut a slow 200 MB upload.
      headersTimeout: 0,
      bodyTimeout: 0,
    });
    pools.set(origin, pool);
  }
  return pool;
}

/** Closes the pool of one origin (a sandbox that stops) or all of them (tests, process exit). */
export async function closePools(origin?: string): Promise<void> {
  const entries = [...pools.entries()].filter(([o]) => origin === undefined || o === origin);
  for (const [o] of entries) pools.delete(o);
  await Promise.all(entries.map(([, p]) => p.destroy().catch(() => undefined)));
}
