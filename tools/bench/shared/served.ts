import { request } from 'undici';
import type { BenchServer } from './processes';

/**
 * What the server says it received, counted outside the engine: a figure checks with it that the
 * work it names happened. A run that uploaded less (a second run that adopted the first run's file,
 * say: adopt-at-add.ts) is an error, never a row of the table.
 */

/** Requests and bytes (headers and body) the server read for one route since the last reset. */
export interface Served {
  requests: number;
  bytes: number;
}

export const UPLOAD_ROUTE = 'POST /files';

/**
 * What a multipart upload may carry beyond its file's bytes: the request line, headers, and the
 * form's framing and fields (bucket, md5). Measured at about 400 bytes from the engine and from curl.
 */
export const UPLOAD_OVERHEAD_BYTES = 4096;

async function admin(server: BenchServer, method: 'GET' | 'DELETE', path: string) {
  const r = await request(`${server.adminUrl}/__admin/v1${path}`, {
    method,
    headers: { 'x-admin-token': server.adminToken },
  });
  const text = await r.body.text();
  if (r.statusCode !== 200)
    throw new Error(`${method} ${path} on the server answered ${r.statusCode}: ${text}`);
  return JSON.parse(text) as { by_route: Record<string, number>; bytes_by_route?: Record<string, number> };
}

/** Zeroes the server's request counts (GET/DELETE /__admin/v1/requests). */
export async function resetServed(server: BenchServer): Promise<void> {
  await admin(server, 'DELETE', '/requests');
}

/** The server's counts for `route` since the last reset. */
export async function served(server: BenchServer, route = UPLOAD_ROUTE): Promise<Served> {
  const r = await admin(server, 'GET', '/requests');
  if (!r.bytes_by_route)
    throw new Error('the server counts no bytes (GET /__admin/v1/requests has no bytes_by_route)');
  return { requests: r.by_route[route] ?? 0, bytes: r.bytes_by_route[route] ?? 0 };
}

/** What a run must have sent: `uploads` upload requests carrying `bytes` bytes of files in all. */
export interface Claim {
  /** The run, for the error: "the engine's run 2". */
  run: string;
  uploads: number;
  bytes: number;
  /** More requests than uploads are allowed (429 answers that were retried), each with its own row. */
  extraRequests?: boolean;
}

/**
 * Throws unless the server received what `claim` says: exactly `uploads` upload requests (at least,
 * with extraRequests), and at least the files' bytes, with no more than the requests' overhead beyond.
 */
export function checkServed(got: Served, claim: Claim): void {
  const overhead = got.requests * UPLOAD_OVERHEAD_BYTES;
  const what = `${claim.uploads} upload${claim.uploads === 1 ? '' : 's'} of ${claim.bytes.toLocaleString('en')} bytes`;
  const saw = `the server received ${got.requests} upload request${got.requests === 1 ? '' : 's'} and ${got.bytes.toLocaleString('en')} bytes`;
  if (got.requests < claim.uploads || got.bytes < claim.bytes)
    throw new Error(`${claim.run} did less than the figure claims (${what}): ${saw}`);
  if ((!claim.extraRequests && got.requests > claim.uploads) || got.bytes > claim.bytes + overhead)
    throw new Error(`${claim.run} did more than the figure claims (${what}): ${saw}`);
}

/** Runs `run` between a reset and a read of the server's counts, and checks them against `claim`. */
export async function verifiedRun<T>(
  server: BenchServer,
  claim: Claim,
  run: () => Promise<T>,
): Promise<{ result: T; served: Served }> {
  await resetServed(server);
  const result = await run();
  const got = await served(server);
  checkServed(got, claim);
  return { result, served: got };
}
