import { isValidBucket } from '../../../src-shared/domain/bucket';
import { appError } from '../../../src-shared/errors';
import { ApiFailure } from '../../core/service/api-error';
import { EXIT, formatBytes, parseCommand, withConnection } from '../common';
import { forTerminal } from '../terminal-text';

const USAGE = `assets-sync files [--bucket B]
  The account's live files, newest first: id, bucket, size, date (IST), name and CDN URL.`;

export async function run(argv: string[]): Promise<number> {
  const p = parseCommand('files', argv, { options: { bucket: { type: 'string' } }, usage: USAGE });
  if (!p.ok) return p.exitCode;
  const { common, out, values } = p;
  const bucket = values.bucket;
  if (bucket !== undefined && !isValidBucket(bucket)) {
    out.error(
      appError('BUCKET-INVALID', `"${bucket}" is not a bucket name: it must match [a-z0-9][a-z0-9.-]{0,49}.`),
    );
    return EXIT.usage;
  }
  return withConnection(common, out, async (s) => {
    let count = 0;
    let bytes = 0;
    try {
      for await (const f of s.client.listAllFiles(bucket !== undefined ? { bucket } : {})) {
        count++;
        bytes += f.size_bytes;
        out.emit(
          `${String(f.id).padStart(7)}  ${f.bucket}  ${formatBytes(f.size_bytes).padStart(9)}  ${f.created_at}  ${forTerminal(f.name)}  ${forTerminal(f.url)}`,
          { event: 'file', ...f },
        );
      }
    } catch (e) {
      if (!(e instanceof ApiFailure)) throw e;
      out.error(e.error);
      return EXIT.failed;
    }
    out.emit(`${count} files, ${formatBytes(bytes)}${bucket ? ` in bucket "${bucket}"` : ''}`, {
      event: 'files.summary',
      count,
      bytes,
      ...(bucket !== undefined ? { bucket } : {}),
    });
    return EXIT.ok;
  });
}
