import { Agent, interceptors, request } from 'undici';
import { z } from 'zod';
import { MAX_FILE_BYTES } from '../../../../src-shared/domain/limits';
import { type ApiFailure, failure, type Outcome } from '../failure';
import { checkFields, resolveNames } from './checks';
import type { Incoming } from './incoming';
import { urlBaseName } from './names';
import { receiveToTemp } from './receive-stream';
import { guardedConnector, RefusedSource } from './source-guard';

/** The download's time limits: the whole transfer, and the longest silence between bytes. */
export const SOURCE_TOTAL_TIMEOUT_MS = 60_000;
const SOURCE_IDLE_TIMEOUT_MS = 15_000;
const MAX_REDIRECTS = 5;

const UrlUploadBody = z.object({
  source_url: z.string({ error: 'source_url is required (a string)' }),
  bucket: z.string({ error: 'bucket must be a string' }).optional(),
  hash: z.string({ error: 'hash must be a string' }).optional(),
  name: z.string({ error: 'name must be a string' }).optional(),
});

/**
 * One sentence whatever went wrong (refused port, timeout, 404, 500, reset, empty body, too many
 * redirects): a reply that said which would let any caller map ports and hosts that only this server
 * can reach. The cause goes to the server's log.
 */
const unreachable = (url: string) =>
  failure(
    'SOURCE-UNREACHABLE',
    `${url} could not be downloaded: it must answer HTTP 200 with a non-empty body (at most ${MAX_REDIRECTS} redirects, ${SOURCE_IDLE_TIMEOUT_MS / 1000} s of silence, ${SOURCE_TOTAL_TIMEOUT_MS / 1000} s in all).`,
  );
const refusedPrivate = (url: string) =>
  failure(
    'SOURCE-UNREACHABLE',
    `${url} leads to a loopback, link-local or private address, which this server refuses to download from (--refuse-private-sources).`,
  );

/** How a download may go: which addresses it refuses, and where the cause of a failure is told. */
export interface DownloadOptions {
  /** Given: every connection (each redirect hop) to an address it says yes to is refused. */
  refuseAddress?: (address: string) => boolean;
  /** The cause behind a SOURCE-UNREACHABLE (for the log, never the reply). */
  onFailure?: (url: string, cause: string) => void;
}

/** Parses the JSON form; checks everything that needs no download, in the documented order. */
export function parseUrlUpload(rawBody: unknown): Outcome<{ url: URL; fields: Incoming['fields'] }> {
  let body: unknown;
  try {
    body = typeof rawBody === 'string' ? JSON.parse(rawBody) : rawBody;
  } catch {
    return refuse(failure('VALIDATION', 'The body is not valid JSON.'));
  }
  const parsed = UrlUploadBody.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const message =
      issue.path.length === 0 ? 'The body must be a JSON object with source_url.' : issue.message;
    return refuse(failure('VALIDATION', message));
  }
  const { source_url, ...fields } = parsed.data;
  let url: URL;
  try {
    url = new URL(source_url);
  } catch {
    return refuse(failure('VALIDATION', `source_url is not a URL: ${JSON.stringify(source_url)}.`));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return refuse(failure('VALIDATION', 'source_url must start with http:// or https://.'));
  const early = checkFields(fields);
  if (early) return refuse(early);
  const names = resolveNames(urlBaseName(url), fields.name);
  if ('code' in names && names.code === 'EXTENSION-NOT-ALLOWED')
    return refuse(
      failure('EXTENSION-NOT-ALLOWED', `source_url must end in an allowed extension. ${names.message}`),
    );
  return { ok: true, value: { url, fields } };
}

/** Downloads `url` to `tempFile` under the same ceiling as multipart uploads, following a few redirects. */
export async function downloadToTemp(
  url: URL,
  tempFile: string,
  o: DownloadOptions = {},
): Promise<Outcome<Pick<Incoming, 'size' | 'md5'>>> {
  const connect = { timeout: SOURCE_IDLE_TIMEOUT_MS };
  const agent = new Agent({
    headersTimeout: SOURCE_IDLE_TIMEOUT_MS,
    bodyTimeout: SOURCE_IDLE_TIMEOUT_MS,
    connect: o.refuseAddress ? guardedConnector(o.refuseAddress, connect) : connect,
  });
  const shown = url.toString();
  const unreachableBecause = (cause: string) => {
    o.onFailure?.(shown, cause);
    return refuse(unreachable(shown));
  };
  try {
    const res = await request(shown, {
      dispatcher: agent.compose(interceptors.redirect({ maxRedirections: MAX_REDIRECTS })),
      signal: AbortSignal.timeout(SOURCE_TOTAL_TIMEOUT_MS),
    });
    if (res.statusCode !== 200) {
      discard(res.body);
      return unreachableBecause(`it answered HTTP ${res.statusCode}`);
    }
    if (Number(res.headers['content-length']) > MAX_FILE_BYTES) {
      discard(res.body);
      return refuse(tooLarge());
    }
    const got = await receiveToTemp(res.body, tempFile, MAX_FILE_BYTES);
    if (got.kind === 'too-large') return refuse(tooLarge());
    if (got.kind === 'store-failed')
      return refuse(
        failure('STORAGE-FAILED', 'The bytes could not be written to storage; nothing was saved. Retry.'),
      );
    if (got.kind === 'source-failed')
      return unreachableBecause(`the transfer failed (${describe(got.error)})`);
    if (got.size === 0) return unreachableBecause('the body was empty');
    return { ok: true, value: { size: got.size, md5: got.md5 } };
  } catch (error) {
    if (isRefusedSource(error)) {
      o.onFailure?.(shown, describe(error));
      return refuse(refusedPrivate(shown));
    }
    return unreachableBecause(describe(error));
  } finally {
    agent.destroy().catch(() => undefined);
  }
}

const tooLarge = () =>
  failure('FILE-TOO-LARGE', `The source is larger than the per-file ceiling of ${MAX_FILE_BYTES} bytes.`);

/** A refused address, however undici wrapped the connector's error. */
function isRefusedSource(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = (e as { cause?: unknown }).cause)
    if (e instanceof RefusedSource) return true;
  return false;
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError' || error.name === 'AbortError')
      return `no complete answer within ${SOURCE_TOTAL_TIMEOUT_MS / 1000} s`;
    const code = (error as { code?: string }).code;
    return code ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}

/** Stops a body we will not read; its abort error is expected, not a crash. */
function discard(body: NodeJS.ReadableStream & { destroy(): void }): void {
  body.on('error', () => undefined);
  body.destroy();
}

function refuse(f: ApiFailure): Outcome<never> {
  return { ok: false, failure: f };
}
