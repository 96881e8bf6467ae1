// The md5 worker: plain JavaScript so that it runs in a worker thread without a TypeScript loader.
// It reads with one reused buffer of at least 1 MiB (4 MiB here) so that hashing keeps pace with md5sum.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';

const CHUNK = 4 * 1024 * 1024;
const buffer = Buffer.allocUnsafe(CHUNK);

parentPort.on('message', (job) => {
  let fd = -1;
  try {
    fd = openSync(job.path, 'r');
    const st = fstatSync(fd);
    if (!st.isFile()) {
      parentPort.postMessage({ id: job.id, error: { code: 'NOT-A-FILE', message: 'not a regular file' } });
      return;
    }
    const hash = createHash('md5');
    let bytes = 0;
    for (;;) {
      const n = readSync(fd, buffer, 0, CHUNK, null);
      if (n === 0) break;
      hash.update(n === CHUNK ? buffer : buffer.subarray(0, n));
      bytes += n;
    }
    parentPort.postMessage({ id: job.id, md5: hash.digest('hex'), bytes });
  } catch (e) {
    parentPort.postMessage({
      id: job.id,
      error: { code: e?.code ?? 'READ-FAILED', message: String(e?.message ?? e) },
    });
  } finally {
    if (fd >= 0) closeSync(fd);
  }
});
