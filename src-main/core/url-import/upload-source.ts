import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { RemoteFile } from '../../../src-shared/api/file-hosting';
import { extensionOf, isAllowedExtension } from '../../../src-shared/domain/extensions';
import { MAX_FILE_BYTES } from '../../../src-shared/domain/limits';
import { hideUrlCredentials } from '../../../src-shared/domain/url-credentials';
import { err, ok, type Result } from '../../../src-shared/errors';
import { type ApiError, apiError } from '../service/api-error';
import type { FileApiClient } from '../service/file-api-client';
import type { Lane } from '../service/request-budget';

/**
 * The service's own file link, `{cdn_url}/storage/<client_id>/<bucket>/<stamp>-<filename>` (the spec's
 * File.url): its file name without the stamp, or null for any other address. The stamp is one run of
 * lower-case letters and digits before the first dash (the reference server's: time in base 36 and four
 * hex digits); a file name of its own keeps its dashes ("mx0l5jke5759-my-notes.txt" is "my-notes.txt").
 */
export function unstampedName(sourceUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(sourceUrl);
  } catch {
    return null;
  }
  const m = /\/storage\/\d+\/[a-z0-9][a-z0-9.-]{0,49}\/([0-9a-z]{6,24})-([^/]+)$/.exec(url.pathname);
  if (!m) return null;
  let name: string;
  try {
    name = decodeURIComponent(m[2]!);
  } catch {
    return null;
  }
  return isAllowedExtension(extensionOf(name)) && !name.includes('/') ? name : null;
}

/** Time limits of the app's own download of a stamped link: as the reference server's for its downloads. */
const DOWNLOAD_TOTAL_MS = 60_000;

/**
 * An upload from a URL (Files → Upload from URL, Import). The service names the new file after the
 * URL's last segment, and its form from a URL has no name field (spec §4): a link of the service's own,
 * `…/<stamp>-notes.txt`, became `…/<new stamp>-<old stamp>-notes.txt` (issue 34). So a link of that
 * form is downloaded here and sent as a multipart upload named `notes.txt` (md5 checked by the service);
 * any other address goes as before, the service downloading it.
 */
export async function uploadFromSource(
  client: FileApiClient,
  input: { sourceUrl: string; bucket?: string; md5?: string; signal?: AbortSignal; lane?: Lane },
): Promise<Result<RemoteFile, ApiError>> {
  const name = unstampedName(input.sourceUrl);
  if (name === null) return client.uploadFromUrl(input);
  const dir = await mkdtemp(join(tmpdir(), 'assets-sync-source-'));
  try {
    const got = await download(input.sourceUrl, join(dir, 'bytes'), input.signal);
    if (!got.ok) return got;
    // A list's md5 is sent as given: the service checks the bytes against it (HASH-MISMATCH), as before.
    return await client.uploadFile({
      path: join(dir, 'bytes'),
      size: got.value.size,
      name,
      md5: input.md5 ?? got.value.md5,
      ...(input.bucket !== undefined ? { bucket: input.bucket } : {}),
      ...(input.signal ? { signal: input.signal } : {}),
      lane: input.lane ?? 'sync',
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function download(
  sourceUrl: string,
  path: string,
  signal: AbortSignal | undefined,
): Promise<Result<{ size: number; md5: string }, ApiError>> {
  const shown = hideUrlCredentials(sourceUrl);
  const unreachable = (why: string) =>
    err(apiError('SOURCE-UNREACHABLE', `${shown} could not be downloaded: ${why}. Nothing was uploaded.`));
  const url = new URL(sourceUrl);
  const headers: Record<string, string> = {};
  // fetch refuses a URL with credentials in it: they go as Basic authentication, as a browser sends them.
  if (url.username || url.password) {
    headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  const timeout = AbortSignal.timeout(DOWNLOAD_TOTAL_MS);
  const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let res: Response;
  try {
    res = await fetch(url, { headers, signal: both, redirect: 'follow' });
  } catch (e) {
    if (signal?.aborted) return err(apiError('ABORTED', 'The upload was stopped.'));
    return unreachable(
      timeout.aborted ? `no answer within ${DOWNLOAD_TOTAL_MS / 1000} s` : (e as Error).message,
    );
  }
  if (res.status !== 200 || !res.body) {
    await res.body?.cancel().catch(() => undefined);
    return unreachable(`it answered HTTP ${res.status}`);
  }
  const declared = Number(res.headers.get('content-length') ?? Number.NaN);
  if (declared > MAX_FILE_BYTES) {
    await res.body.cancel().catch(() => undefined);
    return unreachable(`it is larger than the service takes (${MAX_FILE_BYTES.toLocaleString('en')} bytes)`);
  }
  const md5 = createHash('md5');
  let size = 0;
  const count = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > MAX_FILE_BYTES) return done(new Error('larger than the service takes'));
      md5.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(
      Readable.fromWeb(res.body as import('node:stream/web').ReadableStream),
      count,
      createWriteStream(path),
    );
  } catch (e) {
    if (signal?.aborted) return err(apiError('ABORTED', 'The upload was stopped.'));
    return unreachable((e as Error).message);
  }
  if (size === 0) return unreachable('it sent no bytes');
  return ok({ size, md5: md5.digest('hex') });
}
