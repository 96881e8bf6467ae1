import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { releaseReceivedBuffers } from './memory';

export type Received =
  | { kind: 'ok'; size: number; md5: string }
  | { kind: 'too-large' }
  | { kind: 'source-failed'; error: unknown }
  | { kind: 'store-failed'; error: unknown };

/**
 * Streams bytes to a temp file while counting them and computing their md5, so nothing is held in memory.
 * Past `maxBytes` the stream is torn down at once (the source is destroyed, not read to its end).
 */
export async function receiveToTemp(source: Readable, tempFile: string, maxBytes: number): Promise<Received> {
  const md5 = createHash('md5');
  let size = 0;
  let tooLarge = false;
  let sinkFailed = false;
  const release = releaseReceivedBuffers();
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxBytes) {
        tooLarge = true;
        done(new Error(`more than ${maxBytes} bytes`));
        return;
      }
      md5.update(chunk);
      release(chunk.length);
      done(null, chunk);
    },
  });
  const sink = createWriteStream(tempFile);
  sink.on('error', () => {
    sinkFailed = true;
  });
  try {
    await pipeline(source, meter, sink);
  } catch (error) {
    if (tooLarge) return { kind: 'too-large' };
    return sinkFailed ? { kind: 'store-failed', error } : { kind: 'source-failed', error };
  }
  return { kind: 'ok', size, md5: md5.digest('hex') };
}
