import { request } from 'undici';
import {
  RELAY_FEED_PATH,
  RELAY_MARKS_PATH,
  type RelayFeed,
  RelayFeedSchema,
  type RelayMarkInput,
} from '../../../../src-shared/api/relay';
import { type AppError, appError, err, ok, type Result } from '../../../../src-shared/errors';

/** How a desk reaches its relay: plain requests with the read token; errors are values. */
export interface RelayEndpoint {
  url: string;
  token: string;
}

async function call(
  e: RelayEndpoint,
  path: string,
  init: { method: 'GET' | 'POST'; body?: string; waitS?: number; signal?: AbortSignal },
): Promise<Result<unknown, AppError>> {
  // A long poll is held up to waitS by the relay: the timers leave room for that and a slow link.
  const timeoutMs = ((init.waitS ?? 0) + 15) * 1000;
  let res: Awaited<ReturnType<typeof request>>;
  try {
    res = await request(`${e.url}${path}`, {
      method: init.method,
      headers: {
        authorization: `Bearer ${e.token}`,
        ...(init.body ? { 'content-type': 'application/json' } : {}),
      },
      ...(init.body ? { body: init.body } : {}),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      ...(init.signal ? { signal: init.signal } : {}),
    });
  } catch (error) {
    if (init.signal?.aborted) return err(appError('RELAY-STOPPED', 'Stopped.'));
    const code = (error as { code?: string }).code ?? (error as Error).message;
    return err(appError('RELAY-UNREACHABLE', `The relay at ${e.url} could not be reached (${code}).`));
  }
  const text = await res.body.text().catch(() => '');
  if (res.statusCode === 401)
    return err(
      appError('RELAY-TOKEN-REFUSED', `The relay at ${e.url} refused the read token: paste the current one.`),
    );
  if (res.statusCode === 404)
    return err(
      appError('RELAY-NOT-A-RELAY', `${e.url} answered 404: is this the relay's address (no path after it)?`),
    );
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  if (res.statusCode >= 400) {
    const msg = (json as { error?: unknown } | null)?.error;
    return err(
      appError(
        res.statusCode >= 500 || res.statusCode === 429 ? 'RELAY-UNAVAILABLE' : 'RELAY-REFUSED',
        `The relay answered ${res.statusCode}${typeof msg === 'string' ? `: ${msg}` : ''}.`,
      ),
    );
  }
  return ok(json);
}

export async function fetchFeed(
  e: RelayEndpoint,
  after: number,
  waitS: number,
  signal?: AbortSignal,
): Promise<Result<RelayFeed, AppError>> {
  const r = await call(e, `${RELAY_FEED_PATH}?after=${after}&wait=${waitS}`, {
    method: 'GET',
    waitS,
    ...(signal ? { signal } : {}),
  });
  if (!r.ok) return r;
  const feed = RelayFeedSchema.safeParse(r.value);
  if (!feed.success)
    return err(
      appError('RELAY-BAD-REPLY', `${e.url} did not answer like a relay (${feed.error.issues[0]?.message}).`),
    );
  return ok(feed.data);
}

export async function sendMarks(e: RelayEndpoint, marks: RelayMarkInput[]): Promise<Result<void, AppError>> {
  const r = await call(e, RELAY_MARKS_PATH, { method: 'POST', body: JSON.stringify({ marks }) });
  return r.ok ? ok(undefined) : r;
}
