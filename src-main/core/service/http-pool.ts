import type { Pool } from 'undici';

/** One keep-alive connection pool per service origin, shared by every client of that address. */
const pools = new Map<string, Pool>();

/**
 * undici is loaded by the first request, not with this module: it is ~50 ms of a process's start
 * (compiled and run on the main thread), and the sync engine's start then spends them while its
 * first scan waits on find, not before the scan begins (docs/benchmarks.md, the restart figure).
 */
let undici: Promise<typeof import('undici').default> | null = null;

/**
 * Above any number of requests the client has in flight: the engine's uploads at once (`concurrency`,
 * at most 32 from the CLI, 16 from the app's settings) plus /me, listing and deletes. A request that
 * waits in the pool for a connection is not being sent, so an upload queued there would trip its idle
 * watchdog (no byte sent for 30 s) and fail; at 8 that happened from a concurrency of about 7 up.
 * undici opens a connection only when a request needs one, so the cap costs nothing below it.
 */
const CONNECTIONS_PER_ORIGIN = 64;

export async function poolFor(origin: string): Promise<Pool> {
  // `default`: undici is CommonJS, and a bundle's import() of it (out/cli) has nothing else.
  undici ??= import('undici').then((m) => m.default);
  const { Pool } = await undici;
  let pool = pools.get(origin);
  if (!pool || pool.closed || pool.destroyed) {
    pool = new Pool(origin, {
      connections: CONNECTIONS_PER_ORIGIN,
      // No pipelining: uploads are POSTs (undici never pipelines those), and a reply stuck behind a
      // slow one would only add latency. Keep-alive saves a round trip per request on a real link.
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
