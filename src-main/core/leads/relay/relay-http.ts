import {
  RELAY_FEED_PATH,
  RELAY_MARKS_PATH,
  type RelayFeed,
  RelayFeedSchema,
  type RelayMarkInput,
} from '../../../../src-shared/api/relay';
import { type AppError, appError, err, ok, type Result } from '../../../../src-shared/errors';
import { httpJson } from '../../service/http-json';

/** How a desk reaches its relay: plain requests with the read token; errors are values. */
export interface RelayEndpoint {
  url: string;
  token: string;
}

async function call(
  e: RelayEndpoint,
  path: string,
  init: { method: 'GET' | 'POST'; json?: unknown; waitS?: number; signal?: AbortSignal },
): Promise<Result<unknown, AppError>> {
  const r = await httpJson({
    url: `${e.url}${path}`,
    method: init.method,
    headers: { authorization: `Bearer ${e.token}` },
    ...(init.json !== undefined ? { json: init.json } : {}),
    signal: init.signal,
    // A long poll is held up to waitS by the relay: the limit leaves room for that and a slow link.
    timeoutMs: ((init.waitS ?? 0) + 15) * 1000,
  });
  if (!r.ok) {
    if (r.error.code === 'ABORTED') return err(appError('RELAY-STOPPED', 'Stopped.'));
    return err(
      appError('RELAY-UNREACHABLE', `The relay at ${e.url} could not be reached (${r.error.reason}).`),
    );
  }
  const { status, json } = r.value;
  if (status === 401)
    return err(
      appError('RELAY-TOKEN-REFUSED', `The relay at ${e.url} refused the read token: paste the current one.`),
    );
  if (status === 404)
    return err(
      appError('RELAY-NOT-A-RELAY', `${e.url} answered 404: is this the relay's address (no path after it)?`),
    );
  if (status >= 400) {
    const msg = (json as { error?: unknown } | undefined)?.error;
    return err(
      appError(
        status >= 500 || status === 429 ? 'RELAY-UNAVAILABLE' : 'RELAY-REFUSED',
        `The relay answered ${status}${typeof msg === 'string' ? `: ${msg}` : ''}.`,
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
  const r = await call(e, RELAY_MARKS_PATH, { method: 'POST', json: { marks } });
  return r.ok ? ok(undefined) : r;
}
