import { closeSync, ftruncateSync, openSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '../../../src-shared/domain/limits';
import { API, startServer, type TestServer } from './helpers';

let s: TestServer;
let key: string;
beforeAll(async () => {
  s = await startServer();
  key = String(s.server.demo!.api_key);
});
afterAll(() => s.stop());

/**
 * Sends a multipart upload of `size` zero bytes by hand, with or without Content-Length, and reports the
 * reply and how many body bytes the server let us write before it answered and closed.
 */
function sendZeros(size: number, declareLength: boolean) {
  const boundary = 'limit-test';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.mp4"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const url = new URL(`${s.base}${API}/files`);
  return new Promise<{ status: number; body: string; written: number }>((resolve, reject) => {
    let written = 0;
    let stopped = false;
    const req = request(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        ...(declareLength ? { 'content-length': String(head.length + size + tail.length) } : {}),
      },
    });
    req.on('response', (res) => {
      stopped = true;
      let body = '';
      res.on('data', (d) => {
        body += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, written }));
      res.on('error', reject);
    });
    req.on('error', (error) => {
      if (!stopped) reject(error);
    });
    const chunk = Buffer.alloc(1024 * 1024);
    req.write(head);
    let left = size;
    const pump = () => {
      while (left > 0 && !stopped) {
        const n = Math.min(left, chunk.length);
        left -= n;
        written += n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n)))
          return void req.once('drain', pump);
      }
      if (!stopped) req.end(tail);
    };
    pump();
  });
}

describe('the 200 MB ceiling', () => {
  it('refuses a declared body clearly over the ceiling before reading it', async () => {
    // Content-Length also covers boundaries and fields, so only a body past the ceiling plus that room is
    // refused up front; a smaller one is cut off at the ceiling while streaming (next test).
    const r = await sendZeros(MAX_FILE_BYTES + 8 * 1024 * 1024, true);
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body).code).toBe('FILE-TOO-LARGE');
    expect(r.written).toBeLessThan(MAX_FILE_BYTES / 4);
  });

  it('cuts a streamed body off at the ceiling, not at its end, and keeps nothing', async () => {
    const r = await sendZeros(MAX_FILE_BYTES + 64 * 1024 * 1024, false);
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body).code).toBe('FILE-TOO-LARGE');
    expect(r.written).toBeLessThan(MAX_FILE_BYTES + 32 * 1024 * 1024);
    expect(s.tempFiles()).toEqual([]);
    expect((await s.api(key, 'GET', '/me')).json.data.usage.files_count).toBe(0);
  });

  it('refuses a sparse 200 MB + 1 byte file sent as a form', async () => {
    const path = join(s.dir, 'sparse.mp4');
    const fd = openSync(path, 'w');
    ftruncateSync(fd, MAX_FILE_BYTES + 1);
    closeSync(fd);
    try {
      const { openAsBlob } = await import('node:fs');
      const form = new FormData();
      form.set('file', await openAsBlob(path), 'sparse.mp4');
      const r = await s.api(key, 'POST', '/files', { body: form });
      expect([r.status, r.json.code]).toEqual([413, 'FILE-TOO-LARGE']);
    } finally {
      rmSync(path);
    }
    expect(s.tempFiles()).toEqual([]);
  });
});
