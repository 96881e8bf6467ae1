// The md5 worker: plain JavaScript so that it runs in a worker thread without a TypeScript loader (and
// so that a bundle only has to copy this one file next to itself). Two kinds of job:
// - a file by path ({id, path}): read with one reused buffer of at least 1 MiB (4 MiB here) so that
//   hashing keeps pace with md5sum;
// - a stream of chunks ({stream, op}, see md5-stream.ts): bytes another thread receives, copied into
//   shared buffers; each is hashed here and named back (`hashed`) so that it can be filled again.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';

const CHUNK = 4 * 1024 * 1024;
const buffer = Buffer.allocUnsafe(CHUNK);
/** stream id -> its md5 so far */
const streams = new Map();

parentPort.on('message', (job) => {
  if (job.stream !== undefined) streamJob(job);
  else fileJob(job);
});

function streamJob(job) {
  if (job.op === 'open') {
    streams.set(job.stream, createHash('md5'));
  } else if (job.op === 'update') {
    streams.get(job.stream)?.update(new Uint8Array(job.buffer, 0, job.length));
    parentPort.postMessage({ stream: job.stream, hashed: job.slot });
  } else if (job.op === 'end') {
    const hash = streams.get(job.stream);
    streams.delete(job.stream);
    if (hash) parentPort.postMessage({ stream: job.stream, md5: hash.digest('hex') });
  } else {
    streams.delete(job.stream);
  }
}

function fileJob(job) {
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
}
