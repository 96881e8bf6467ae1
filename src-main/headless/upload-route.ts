import { randomUUID } from 'node:crypto';
import { createWriteStream, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { invalidBucketMessage, isValidBucket } from '../../src-shared/domain/bucket';
import { formatBytes } from '../../src-shared/domain/bytes';
import { MAX_FILE_BYTES } from '../../src-shared/domain/limits';
import { makePrivateDir } from '../shared-node/private-files';
import type { CoreEndpoint } from './core-endpoint';

/** One path component on the usual file systems (ext4, APFS, NTFS count bytes or UTF-16 units). */
const MAX_NAME_BYTES = 255;

/**
 * A browser page cannot hand the core a file path, so a file dropped on the page is streamed here
 * into the app's data folder first, then queued like any dropped file. The body is cut off past the
 * service's size ceiling rather than read to its end.
 */
export async function handleUpload(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  dropDir: string,
  core: CoreEndpoint,
): Promise<void> {
  const bucket = url.searchParams.get('bucket') ?? '';
  const rawName = url.searchParams.get('name') ?? '';
  const name = basename(rawName.replace(/\\/g, '/'));
  if (!isValidBucket(bucket))
    return json(res, 422, { code: 'BUCKET-INVALID', message: invalidBucketMessage(bucket) });
  if (!name || name === '.' || name === '..' || [...name].some((c) => c.charCodeAt(0) < 32))
    return json(res, 422, { code: 'VALIDATION', message: 'The dropped file has no usable name.' });
  // Past this the file system refuses the name (ENAMETOOLONG), which would read as a broken upload.
  const nameBytes = Buffer.byteLength(name);
  if (nameBytes > MAX_NAME_BYTES)
    return json(res, 422, {
      code: 'NAME-TOO-LONG',
      message: `The name of the dropped file is ${nameBytes} bytes long; names can be at most ${MAX_NAME_BYTES} bytes. Rename it and drop it again.`,
    });
  const dir = join(dropDir, randomUUID());
  makePrivateDir(dir);
  const file = join(dir, name);
  let received = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _enc, done) {
      received += chunk.length;
      if (received > MAX_FILE_BYTES)
        return done(Object.assign(new Error('too large'), { code: 'FILE-TOO-LARGE' }));
      done(null, chunk);
    },
  });
  try {
    await pipeline(req, limit, createWriteStream(file));
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    if ((error as { code?: string }).code === 'FILE-TOO-LARGE') {
      req.resume();
      return json(res, 413, {
        code: 'FILE-TOO-LARGE',
        message: `${name} is larger than the ${formatBytes(MAX_FILE_BYTES)} ceiling.`,
      });
    }
    return json(res, 400, {
      code: 'UPLOAD-INTERRUPTED',
      message: `${name} did not arrive whole; drop it again.`,
    });
  }
  const result = await core.call('files.uploadPaths', { paths: [file], bucket });
  if (!result.ok) rmSync(dir, { recursive: true, force: true });
  json(res, result.ok ? 202 : 422, result.ok ? result.value : result.error);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}
