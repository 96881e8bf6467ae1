import { type Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sharedMd5Streams } from '../../../shared-node/md5/md5-stream';
import { releaseReceivedBuffers } from './memory';

export type Received =
  | { kind: 'ok'; size: number; md5: string }
  | { kind: 'too-large' }
  | { kind: 'source-failed'; error: unknown }
  | { kind: 'store-failed'; error: unknown };

/**
 * Streams bytes to a temp file while counting them and computing their md5, so nothing is held in memory.
 * The md5 is computed in the md5 worker and the bytes are written in large blocks through the thread pool
 * (md5-stream.ts): this thread parses the body and only copies the bytes. Past `maxBytes` the stream is
 * torn down at once (the source is destroyed, not read to its end). When this returns, the temp file is
 * closed, whatever the outcome, and may be removed.
 */
export async function receiveToTemp(source: Readable, tempFile: string, maxBytes: number): Promise<Received> {
  const hashed = sharedMd5Streams().open({ writeTo: tempFile });
  let size = 0;
  let md5 = '';
  let tooLarge = false;
  let sinkFailed = false;
  const release = releaseReceivedBuffers();
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxBytes) {
        tooLarge = true;
        done(new Error(`more than ${maxBytes} bytes`));
        return;
      }
      release(chunk.length);
      const wait = hashed.update(chunk);
      if (!wait) done();
      else wait.then(() => done(), sinkError(done));
    },
    final(done) {
      hashed.digest().then((digest) => {
        md5 = digest;
        done();
      }, sinkError(done));
    },
  });
  const sinkError = (done: (e: Error) => void) => (error: Error) => {
    sinkFailed = true;
    done(error);
  };
  try {
    await pipeline(source, sink);
  } catch (error) {
    await hashed.abort();
    if (tooLarge) return { kind: 'too-large' };
    return sinkFailed ? { kind: 'store-failed', error } : { kind: 'source-failed', error };
  }
  return { kind: 'ok', size, md5 };
}
