import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMd5Streams, type Md5Stream, type Md5Streams } from '../../src-main/shared-node/md5/md5-stream';

const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');

/** Feeds `bytes` in pieces of the given sizes (cycled); counts the updates that had to wait. */
async function feed(stream: Md5Stream, bytes: Buffer, pieces: number[]): Promise<number> {
  let waits = 0;
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const n = pieces[i % pieces.length]!;
    const wait = stream.update(bytes.subarray(at, at + n));
    if (wait) {
      waits++;
      await wait;
    }
    at += n;
  }
  return waits;
}

describe('md5 of a stream, in the md5 worker', () => {
  // Small buffers, so that a few hundred KB cross many buffer boundaries and run out of buffers.
  let streams: Md5Streams;
  let dir: string;
  beforeAll(() => {
    streams = createMd5Streams({ bufferBytes: 4096, buffersPerStream: 2 });
    dir = mkdtempSync(join(tmpdir(), 'md5-stream-'));
  });
  afterAll(async () => {
    await streams.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives the md5 of the bytes whatever their pieces (empty, tiny, across and over buffers)', async () => {
    const bytes = randomBytes(300_000);
    for (const pieces of [[1, 4095, 4096, 4097], [65_536], [0, 7, 12_289], [300_000]]) {
      const s = streams.open();
      await feed(s, bytes, pieces);
      expect(await s.digest()).toBe(md5(bytes));
    }
    expect(await streams.open().digest()).toBe(md5(Buffer.alloc(0)));
  });

  it('holds at most its buffers: past them, update waits for the worker', async () => {
    const s = streams.open();
    // Two buffers of 4096: the first 8192 bytes are taken at once, the next byte must wait.
    expect(s.update(Buffer.alloc(8192, 1))).toBeNull();
    const wait = s.update(Buffer.alloc(1, 2));
    expect(wait).toBeInstanceOf(Promise);
    await wait;
    expect(await s.digest()).toBe(md5(Buffer.concat([Buffer.alloc(8192, 1), Buffer.alloc(1, 2)])));
  });

  it('multiplexes streams in one worker without mixing their bytes', async () => {
    const a = randomBytes(100_000);
    const b = randomBytes(70_000);
    const sa = streams.open({ writeTo: join(dir, 'a.part') });
    const sb = streams.open();
    await Promise.all([feed(sa, a, [1000, 3000]), feed(sb, b, [5000])]);
    expect(await Promise.all([sa.digest(), sb.digest()])).toEqual([md5(a), md5(b)]);
    expect(readFileSync(join(dir, 'a.part')).equals(a)).toBe(true);
  });

  it('writes the bytes to a file, complete and closed when the md5 is given', async () => {
    const bytes = randomBytes(123_457);
    const file = join(dir, 'written.part');
    const s = streams.open({ writeTo: file });
    const waits = await feed(s, bytes, [16_384]);
    expect(await s.digest()).toBe(md5(bytes));
    expect(waits).toBeGreaterThan(0);
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });

  it('reports a file that cannot be written by its errno, and aborts cleanly', async () => {
    const s = streams.open({ writeTo: join(dir, 'no-such-dir', 'x.part') });
    await feed(s, randomBytes(10_000), [1000]).catch(() => undefined);
    await expect(s.digest()).rejects.toMatchObject({ code: 'ENOENT' });
    await s.abort();
    // The worker is still good for the next stream.
    const next = streams.open();
    await feed(next, Buffer.from('abc'), [3]);
    expect(await next.digest()).toBe(md5(Buffer.from('abc')));
  });

  it('abort resolves once the file is closed; the stream refuses more bytes', async () => {
    const file = join(dir, 'aborted.part');
    const s = streams.open({ writeTo: file });
    await feed(s, randomBytes(50_000), [4096]);
    await s.abort();
    rmSync(file);
    expect(existsSync(file)).toBe(false);
    await expect(s.update(Buffer.from('x'))).rejects.toMatchObject({ code: 'HASHER-ABORTED' });
  });
});

describe('when the worker goes away', () => {
  it('fails the open streams with HASHER-FAILED and refuses new ones', async () => {
    const streams = createMd5Streams({ bufferBytes: 1024, buffersPerStream: 1 });
    const s = streams.open();
    s.update(Buffer.alloc(1024));
    const waiting = s.update(Buffer.alloc(10))!.catch((e: unknown) => e);
    await streams.close();
    expect(await waiting).toMatchObject({ code: 'HASHER-FAILED' });
    await expect(s.digest()).rejects.toMatchObject({ code: 'HASHER-FAILED' });
    await expect(streams.open().digest()).rejects.toMatchObject({ code: 'HASHER-FAILED' });
  });
});
