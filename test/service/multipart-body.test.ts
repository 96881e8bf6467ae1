import { randomFillSync } from 'node:crypto';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  FileChangedError,
  filenameParams,
  multipartBody,
  RECYCLED_CHUNKS,
  UPLOAD_CHUNK_BYTES,
} from '../../src-main/core/service/multipart-body';

const dir = mkdtempSync(join(tmpdir(), 'assets-multipart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function collect(gen: AsyncGenerator<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of gen) parts.push(Buffer.from(c));
  return Buffer.concat(parts);
}

describe('multipart body', () => {
  // The caller looks at the open file again once the body read it (upload-one.ts: was it written
  // meanwhile?) and closes it itself: the body must leave the handle open, read whole or not.
  it('leaves a given handle open, whether the body was read to its end or stopped early', async () => {
    const path = join(dir, 'kept-open.bin');
    const bytes = Buffer.alloc(2 * 1024 * 1024 + 3, 0xcd);
    writeFileSync(path, bytes);
    const handle = await open(path);
    try {
      const whole = multipartBody([], { path, size: bytes.length, filename: 'k.bin', handle });
      expect((await collect(whole.stream())).length).toBe(whole.contentLength);
      expect(handle.fd).toBeGreaterThanOrEqual(0);
      const stopped = multipartBody([], { path, size: bytes.length, filename: 'k.bin', handle }).stream();
      await stopped.next();
      await stopped.next();
      await stopped.return(undefined);
      expect(handle.fd).toBeGreaterThanOrEqual(0);
      const again = Buffer.alloc(3);
      expect((await handle.read(again, 0, 3, 0)).bytesRead).toBe(3);
    } finally {
      await handle.close();
    }
  });

  it('has the announced length, the fields in order, then the file bytes, and reports progress', async () => {
    const path = join(dir, 'a.bin');
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 7, 0xab);
    writeFileSync(path, bytes);
    const body = multipartBody(
      [
        ['bucket', 'docs'],
        ['name', 'sub/ä b.pdf'],
        ['hash', 'abc'],
      ],
      { path, size: bytes.length, filename: 'ä "b".pdf' },
    );
    const progress: number[] = [];
    const raw = await collect(body.stream((n) => progress.push(n)));
    expect(raw.length).toBe(body.contentLength);
    const boundary = /boundary=(.+)$/.exec(body.contentType)![1]!;
    const text = raw.toString('latin1');
    const names = [...text.matchAll(/; name="([^"]+)"/g)].map((m) => m[1]);
    expect(names).toEqual(['bucket', 'name', 'hash', 'file']);
    expect(raw.toString('utf8')).toContain('\r\n\r\nsub/ä b.pdf\r\n');
    const start = raw.indexOf('\r\n\r\n', raw.indexOf('name="file"')) + 4;
    const end = raw.lastIndexOf(Buffer.from(`\r\n--${boundary}--\r\n`));
    expect(end - start).toBe(bytes.length);
    expect(raw.subarray(start, end).equals(bytes)).toBe(true);
    // Reads of 1 MiB: 4 chunks for 3 MiB + 7 bytes, the last at the full size.
    expect(progress).toEqual([1, 2, 3].map((m) => m * 1024 * 1024).concat(bytes.length));
  });

  // The socket holds a chunk until it drains and Readable.from one more ahead (http-json.ts): a recycled
  // read must not refill a buffer before the consumer let go of it. Held here: one more than those two.
  it('a recycled read leaves each chunk whole while the consumer still holds three', async () => {
    const path = join(dir, 'recycled.bin');
    const bytes = randomFillSync(Buffer.alloc(9 * UPLOAD_CHUNK_BYTES + 5));
    writeFileSync(path, bytes);
    const handle = await open(path);
    try {
      const body = multipartBody([], { path, size: bytes.length, filename: 'r.bin', handle, recycle: true });
      const held: Uint8Array[] = [];
      const sent: Buffer[] = [];
      const seen = new Set<ArrayBufferLike>();
      for await (const chunk of body.stream()) {
        seen.add(chunk.buffer);
        held.push(chunk);
        if (held.length > 3) sent.push(Buffer.from(held.shift()!));
      }
      for (const chunk of held) sent.push(Buffer.from(chunk));
      const raw = Buffer.concat(sent);
      const start = raw.indexOf('\r\n\r\n', raw.indexOf('name="file"')) + 4;
      expect(raw.subarray(start, start + bytes.length).equals(bytes)).toBe(true);
      // It did recycle: the file's ten reads went through RECYCLED_CHUNKS buffers (plus the two texts').
      expect(seen.size).toBeLessThanOrEqual(RECYCLED_CHUNKS + 2);
    } finally {
      await handle.close();
    }
  });

  it('fails with FILE-CHANGED when the file shrank after its size was taken', async () => {
    const path = join(dir, 'b.bin');
    writeFileSync(path, Buffer.alloc(1000, 1));
    const body = multipartBody([], { path, size: 1000, filename: 'b.bin' });
    truncateSync(path, 400);
    await expect(collect(body.stream())).rejects.toBeInstanceOf(FileChangedError);
  });

  it('sends the filename in UTF-8 as browsers do, escaping only quotes and line breaks', () => {
    expect(filenameParams('a"b\r\nc.pdf')).toBe('filename="a%22b%0D%0Ac.pdf"');
    expect(filenameParams("Résumé final — v2 ä'(x).pdf")).toBe(`filename="Résumé final — v2 ä'(x).pdf"`);
  });
});
