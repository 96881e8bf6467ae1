import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiveToTemp } from '../../../src-main/reference-server/file-hosting/upload/receive-stream';

// The md5 and the writes happen in the md5 worker; these check what the upload routes rely on.
describe('receiveToTemp', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'receive-stream-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A source of `count` chunks of `size` random bytes; `pulled` counts the chunks read from it. */
  function source(count: number, size: number, failAt?: number) {
    const chunks = Array.from({ length: count }, () => randomBytes(size));
    const state = { pulled: 0, chunks };
    const stream = new Readable({
      read() {
        if (state.pulled === failAt) {
          this.destroy(new Error('connection reset'));
          return;
        }
        this.push(state.pulled < count ? chunks[state.pulled++] : null);
      },
    });
    return { stream, state };
  }

  it('writes the bytes to the temp file and gives their size and md5', async () => {
    const { stream, state } = source(40, 100_000);
    const file = join(dir, 'ok.part');
    const got = await receiveToTemp(stream, file, 10_000_000);
    const all = Buffer.concat(state.chunks);
    expect(got).toEqual({ kind: 'ok', size: all.length, md5: createHash('md5').update(all).digest('hex') });
    expect(readFileSync(file).equals(all)).toBe(true);
  });

  it('stops at the ceiling without reading the source to its end, the file closed', async () => {
    const { stream, state } = source(100, 64 * 1024);
    const file = join(dir, 'big.part');
    const got = await receiveToTemp(stream, file, 10 * 64 * 1024);
    expect(got.kind).toBe('too-large');
    expect(state.pulled).toBeLessThan(20);
    expect(statSync(file).size).toBeLessThanOrEqual(10 * 64 * 1024);
    rmSync(file);
  });

  it('reports a source that fails midway as source-failed', async () => {
    const { stream } = source(10, 10_000, 5);
    const file = join(dir, 'cut.part');
    expect((await receiveToTemp(stream, file, 10_000_000)).kind).toBe('source-failed');
    rmSync(file);
  });

  it('reports a temp file that cannot be written as store-failed', async () => {
    const { stream } = source(10, 10_000);
    const got = await receiveToTemp(stream, join(dir, 'missing-dir', 'x.part'), 10_000_000);
    expect(got.kind).toBe('store-failed');
    expect(String((got as { error: unknown }).error)).toContain('ENOENT');
  });
});
