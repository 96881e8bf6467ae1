import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  createReadStream,
  mkdtempSync,
  openSync,
  rmSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiFailure } from '../../src-main/core/service/api-error';
import { createFileApiClient, type FileApiClient } from '../../src-main/core/service/file-api-client';
import { closePools } from '../../src-main/core/service/http-pool';
import { createRequestBudget } from '../../src-main/core/service/request-budget';
import { startTestServer, type TestServer } from './reference-server-helpers';

// Everything here runs against the real reference server on a real port; the only other server is
// a deliberately broken one, for replies the reference server cannot be made to send.
const dir = mkdtempSync(join(tmpdir(), 'assets-svc-files-'));
let srv: TestServer;
let client: FileApiClient;
const sent: string[] = [];

const unlimited = () => createRequestBudget({ perMinute: 0 });
const clientFor = (apiKey: string, extra: Partial<Parameters<typeof createFileApiClient>[0]> = {}) =>
  createFileApiClient({ baseUrl: srv.baseUrl, apiKey, budget: unlimited(), retries: 0, ...extra });

function writeFile(name: string, bytes: Buffer | string): { path: string; size: number; md5: string } {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  const buf = Buffer.from(bytes);
  return { path, size: buf.length, md5: createHash('md5').update(buf).digest('hex') };
}

async function md5OfFile(path: string): Promise<string> {
  const h = createHash('md5');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) h.update(chunk as Buffer);
  return h.digest('hex');
}

beforeAll(async () => {
  srv = await startTestServer();
  client = clientFor(srv.demoKey, { onRequest: (m, p) => sent.push(`${m} ${p}`) });
});
afterAll(async () => {
  await closePools();
  await srv?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('file API client against the reference server', () => {
  it('reads the account with /me', async () => {
    const me = await client.me();
    expect(me.ok && me.value.client.name).toBe('Demo');
    expect(me.ok && me.value.wallet.min_balance_to_upload_paise).toBe(5000);
    expect(sent).toContain('GET /api/assets/v1/me');
  });

  it('uploads, reads back, lists, serves the exact bytes, and deletes idempotently', async () => {
    const f = writeFile('hello world.txt', 'hello, world\n');
    const up = await client.uploadFile({
      path: f.path,
      size: f.size,
      name: 'notes/hello world.txt',
      bucket: 'docs',
      md5: f.md5,
    });
    if (!up.ok) throw new Error(up.error.message);
    expect(up.value).toMatchObject({
      bucket: 'docs',
      name: 'notes/hello world.txt',
      size_bytes: f.size,
      hash: f.md5,
      status: 'ACTIVE',
    });
    const served = await request(up.value.url);
    expect(served.statusCode).toBe(200);
    expect(await served.body.text()).toBe('hello, world\n');
    const got = await client.getFile(up.value.id);
    expect(got.ok && got.value.id).toBe(up.value.id);
    const listed = await client.listFiles({ bucket: 'docs' });
    expect(listed.ok && listed.value.files.map((x) => x.id)).toContain(up.value.id);
    const del = await client.deleteFile(up.value.id);
    expect(del.ok && del.value).toEqual({ id: up.value.id, status: 'DELETED' });
    const again = await client.deleteFile(up.value.id);
    expect(again.ok && again.value.status).toBe('DELETED');
    const gone = await client.getFile(up.value.id);
    expect(!gone.ok && [gone.error.code, gone.error.status, gone.error.reaction]).toEqual([
      'GONE',
      410,
      'reject',
    ]);
  });

  it('keeps a unicode name intact', async () => {
    const f = writeFile('u.pdf', '%PDF-1.4 tiny');
    const up = await client.uploadFile({
      path: f.path,
      size: f.size,
      name: 'रिपोर्ट "q1" ä.pdf',
      bucket: 'docs',
    });
    expect(up.ok && up.value.name).toBe('रिपोर्ट "q1" ä.pdf');
    expect(up.ok && up.value.extension).toBe('pdf');
  });

  it('keeps a unicode name in the URL, percent-encoded as UTF-8, and the URL serves the file', async () => {
    const name = 'Résumé final — v2.pdf';
    const f = writeFile('resume.pdf', '%PDF-1.4 résumé');
    const up = await client.uploadFile({ path: f.path, size: f.size, name, bucket: 'docs' });
    if (!up.ok) throw new Error(up.error.message);
    expect(up.value.name).toBe(name);
    const url = new URL(up.value.url);
    expect(url.pathname).toMatch(new RegExp(`^/storage/\\d+/docs/[0-9a-z]+-${encodeURIComponent(name)}$`));
    expect(decodeURIComponent(url.pathname.split('/').pop()!)).toMatch(new RegExp(`-${name}$`));
    const served = await request(up.value.url);
    expect(served.statusCode).toBe(200);
    expect(await served.body.text()).toBe('%PDF-1.4 résumé');
  });

  it('lists every file across pages of 100 (listAllFiles)', async () => {
    const f = writeFile('p.txt', 'page test');
    const ids: number[] = [];
    for (let batch = 0; batch < 105; batch += 15) {
      const ups = await Promise.all(
        Array.from({ length: Math.min(15, 105 - batch) }, (_, i) =>
          client.uploadFile({ path: f.path, size: f.size, name: `p-${batch + i}.txt`, bucket: 'paged' }),
        ),
      );
      for (const u of ups) ids.push(u.ok ? u.value.id : -1);
    }
    const seen: number[] = [];
    for await (const file of client.listAllFiles({ bucket: 'paged' })) seen.push(file.id);
    expect(seen.sort((a, b) => a - b)).toEqual(ids.sort((a, b) => a - b));
    expect(sent.filter((s) => s === 'GET /api/assets/v1/files').length).toBeGreaterThanOrEqual(2);
  });

  it('streams a 50 MB file from disk with its md5, reporting progress to the last byte', async () => {
    const path = join(dir, 'big.mp4');
    const fd = openSync(path, 'w');
    const block = randomBytes(1 << 20);
    for (let i = 0; i < 50; i++) writeSync(fd, block, 0, block.length, i * block.length);
    closeSync(fd);
    const md5 = await md5OfFile(path);
    const progress: number[] = [];
    const up = await client.uploadFile({
      path,
      size: 50 << 20,
      name: 'big.mp4',
      md5,
      onProgress: (n) => progress.push(n),
    });
    if (!up.ok) throw new Error(up.error.message);
    expect(up.value.hash).toBe(md5);
    expect(up.value.size_bytes).toBe(50 << 20);
    expect(progress.at(-1)).toBe(50 << 20);
    expect(progress.length).toBeGreaterThanOrEqual(50);
    const served = await request(up.value.url);
    const h = createHash('md5');
    for await (const c of served.body) h.update(c as Buffer);
    expect(h.digest('hex')).toBe(md5);
  });

  it('aborts an upload on the caller signal', async () => {
    const path = join(dir, 'big.mp4');
    const controller = new AbortController();
    const up = await client.uploadFile({
      path,
      size: 50 << 20,
      name: 'aborted.mp4',
      signal: controller.signal,
      onProgress: (n) => {
        if (n >= 4 << 20) controller.abort();
      },
    });
    expect(!up.ok && [up.error.code, up.error.reaction]).toEqual(['ABORTED', 'retry']);
  });

  it('uploads from a URL, and names an unreachable source', async () => {
    const f = writeFile('src.txt', 'from a url');
    const first = await client.uploadFile({ path: f.path, size: f.size, name: 'src.txt' });
    if (!first.ok) throw new Error(first.error.message);
    const copy = await client.uploadFromUrl({ sourceUrl: first.value.url, bucket: 'copies', md5: f.md5 });
    expect(copy.ok && [copy.value.bucket, copy.value.hash]).toEqual(['copies', f.md5]);
    const bad = await client.uploadFromUrl({ sourceUrl: 'http://127.0.0.1:9/nothing.txt' });
    expect(!bad.ok && [bad.error.code, bad.error.status, bad.error.reaction]).toEqual([
      'SOURCE-UNREACHABLE',
      422,
      'reject',
    ]);
    // Said once: the service's sentence names the URL and the rule; ours said the rule again before it.
    const said = bad.ok ? '' : bad.error.message;
    expect(said).toMatch(/^http:\/\/127\.0\.0\.1:9\/nothing\.txt /);
    expect(said.match(/HTTP 200/g)).toHaveLength(1);
  });

  it('reads usage snapshots and refuses a bad range with VALIDATION', async () => {
    const u = await client.usage(7);
    expect(u.ok && u.value.days).toBe(7);
    const bad = await client.usage(0);
    expect(!bad.ok && [bad.error.code, bad.error.reaction]).toEqual(['VALIDATION', 'reject']);
  });
});

describe('every error code maps to its reaction', () => {
  it('401 UNAUTHENTICATED: a wrong key and a revoked key ask for a key (auth)', async () => {
    const wrong = await clientFor('not-a-key').me();
    expect(!wrong.ok && [wrong.error.code, wrong.error.status, wrong.error.reaction]).toEqual([
      'UNAUTHENTICATED',
      401,
      'auth',
    ]);
    const c = await srv.newClient('Revoked');
    expect((await clientFor(c.apiKey).me()).ok).toBe(true);
    expect((await srv.admin('DELETE', `/keys/${c.keyId}`)).status).toBe(200);
    const revoked = await clientFor(c.apiKey).me();
    expect(!revoked.ok && revoked.error.reaction).toBe('auth');
    expect(!revoked.ok && revoked.error.message).not.toContain(c.apiKey);
  });

  it('413, 415, 422: empty, oversized, bad extension, bad bucket are rejected; a wrong md5 rehashes', async () => {
    const empty = writeFile('empty.txt', '');
    const e = await client.uploadFile({ path: empty.path, size: 0, name: 'empty.txt' });
    expect(!e.ok && [e.error.code, e.error.status, e.error.reaction]).toEqual([
      'FILE-TOO-LARGE',
      413,
      'reject',
    ]);

    const huge = join(dir, 'huge.mp4');
    writeFileSync(huge, '');
    truncateSync(huge, 209_715_201); // sparse: 200 MB + 1 byte
    const h = await client.uploadFile({ path: huge, size: 209_715_201, name: 'huge.mp4' });
    expect(!h.ok && [h.error.code, h.error.reaction]).toEqual(['FILE-TOO-LARGE', 'reject']);

    const exe = writeFile('tool.exe', 'MZ');
    const x = await client.uploadFile({ path: exe.path, size: exe.size, name: 'tool.exe' });
    expect(!x.ok && [x.error.code, x.error.status, x.error.reaction]).toEqual([
      'EXTENSION-NOT-ALLOWED',
      415,
      'reject',
    ]);

    const ok = writeFile('ok.txt', 'fine');
    const b = await client.uploadFile({ path: ok.path, size: ok.size, name: 'ok.txt', bucket: 'Bad_Bucket' });
    expect(!b.ok && [b.error.code, b.error.status, b.error.reaction]).toEqual([
      'BUCKET-INVALID',
      422,
      'reject',
    ]);

    const m = await client.uploadFile({ path: ok.path, size: ok.size, name: 'ok.txt', md5: '0'.repeat(32) });
    expect(!m.ok && [m.error.code, m.error.status, m.error.reaction]).toEqual([
      'HASH-MISMATCH',
      422,
      'rehash',
    ]);
  });

  it('a file that shrank while it was sent is FILE-CHANGED (rehash), and nothing is stored', async () => {
    const f = writeFile('shrunk.txt', '0123456789');
    const r = await client.uploadFile({ path: f.path, size: 20, name: 'shrunk.txt', bucket: 'shrunk' });
    expect(!r.ok && [r.error.code, r.error.reaction]).toEqual(['FILE-CHANGED', 'rehash']);
    const listed = await client.listFiles({ bucket: 'shrunk' });
    expect(listed.ok && listed.value.meta.total).toBe(0);
  });

  it('502 STORAGE-FAILED and a dropped connection are retried (retry); nothing is stored', async () => {
    const f = writeFile('fault.txt', 'fault');
    expect((await srv.admin('PUT', '/faults', { storage_fail_rate: 1 })).status).toBe(200);
    const s = await client.uploadFile({ path: f.path, size: f.size, name: 'fault.txt', bucket: 'faults' });
    expect(!s.ok && [s.error.code, s.error.status, s.error.reaction]).toEqual([
      'STORAGE-FAILED',
      502,
      'retry',
    ]);
    await srv.admin('PUT', '/faults', { storage_fail_rate: 0, connection_reset_rate: 1 });
    const r = await client.uploadFile({ path: f.path, size: f.size, name: 'fault.txt', bucket: 'faults' });
    expect(!r.ok && [r.error.code, r.error.reaction]).toEqual(['NETWORK', 'retry']);
    await srv.admin('PUT', '/faults', { storage_fail_rate: 0, connection_reset_rate: 0 });
    const listed = await client.listFiles({ bucket: 'faults' });
    expect(listed.ok && listed.value.meta.total).toBe(0);
  });

  it('402 LOW-BALANCE pauses; rent unpaid (UPLOADS-PAUSED) pauses; 30 days later 403 CLIENT-CLOSED', async () => {
    const poor = await srv.newClient('Poor', 100);
    const f = writeFile('money.txt', 'x'.repeat(1000));
    const low = await clientFor(poor.apiKey).uploadFile({ path: f.path, size: f.size, name: 'money.txt' });
    expect(!low.ok && [low.error.code, low.error.status, low.error.reaction]).toEqual([
      'LOW-BALANCE',
      402,
      'pause',
    ]);

    // Rent under one paisa a day is free, so this client stores enough to owe rent: 80 MB at 500 paise/GB-month.
    const renter = await srv.newClient('Renter', 10_000);
    const rc = clientFor(renter.apiKey);
    const path = join(dir, 'rent.mp4');
    writeFileSync(path, '');
    truncateSync(path, 80 << 20);
    const up = await rc.uploadFile({ path, size: 80 << 20, name: 'rent.mp4' });
    expect(up.ok).toBe(true);
    const me0 = await rc.me();
    const balance = me0.ok ? me0.value.wallet.balance_paise : 0;
    await srv.admin('POST', `/clients/${renter.id}/wallet`, { amount_paise: -balance });
    await srv.admin('POST', '/clock/advance', { seconds: 2 * 86_400 });
    const me1 = await rc.me();
    expect(me1.ok && me1.value.arrears.paise).toBeGreaterThan(0);
    const paused = await rc.uploadFile({ path: f.path, size: f.size, name: 'money.txt' });
    expect(!paused.ok && paused.error.reaction).toBe('pause');
    expect(!paused.ok && ['UPLOADS-PAUSED', 'LOW-BALANCE']).toContain(paused.ok ? '' : paused.error.code);

    await srv.admin('POST', '/clock/advance', { seconds: 31 * 86_400 });
    const closed = await rc.me();
    expect(!closed.ok && [closed.error.code, closed.error.status, closed.error.reaction]).toEqual([
      'CLIENT-CLOSED',
      403,
      'closed',
    ]);
  });
});

describe('429, and replies the reference server cannot be made to send', () => {
  it('429 RATE-LIMITED is retried and defers everyone on the budget until Retry-After', async () => {
    const limited = await startTestServer({ ratePerMinute: 3 });
    try {
      const budget = createRequestBudget({ perMinute: 0 });
      const c = createFileApiClient({
        baseUrl: limited.baseUrl,
        apiKey: limited.demoKey,
        budget,
        retries: 0,
      });
      const results = [];
      for (let i = 0; i < 4; i++) results.push(await c.me());
      const last = results.at(-1)!;
      expect(!last.ok && [last.error.code, last.error.status, last.error.reaction]).toEqual([
        'RATE-LIMITED',
        429,
        'retry',
      ]);
      const waitMs = !last.ok ? (last.error.retryAfterMs ?? 15_000) : 0;
      expect(waitMs).toBeGreaterThan(0);
      // The budget now holds every caller back: a take does not resolve within 200 ms.
      const granted = await Promise.race([
        budget.take().then(() => true),
        new Promise((r) => setTimeout(r, 200, false)),
      ]);
      expect(granted).toBe(false);
    } finally {
      await closePools();
      await limited.stop();
    }
  });

  it('an unreadable or wrongly shaped 2xx is BAD-REPLY, silence is TIMEOUT, a closed port is NETWORK: never a throw', async () => {
    let mode = 'text';
    const broken: Server = createServer((_req, res) => {
      if (mode === 'silent') return; // never answers
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(mode === 'text' ? 'not json' : JSON.stringify({ data: { id: 'seven' } }));
    });
    await new Promise<void>((r) => broken.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(broken.address() as AddressInfo).port}`;
    try {
      const c = createFileApiClient({
        baseUrl: base,
        apiKey: 'k',
        budget: unlimited(),
        retries: 0,
        timeoutMs: 300,
      });
      const text = await c.me();
      expect(!text.ok && [text.error.code, text.error.status, text.error.reaction]).toEqual([
        'BAD-REPLY',
        200,
        'reject',
      ]);
      mode = 'shape';
      const shape = await c.getFile(7);
      expect(!shape.ok && shape.error.code).toBe('BAD-REPLY');
      expect(!shape.ok && shape.error.message).toMatch(/data\.(id|url)/);
      mode = 'silent';
      const silent = await c.usage(7);
      expect(!silent.ok && [silent.error.code, silent.error.reaction]).toEqual(['TIMEOUT', 'retry']);
      let threw: unknown = null;
      try {
        for await (const _ of c.listAllFiles()) break;
      } catch (e) {
        threw = e;
      }
      expect(threw).toBeInstanceOf(ApiFailure);
    } finally {
      broken.closeAllConnections();
      await new Promise((r) => broken.close(r));
    }
    const closedPort = createFileApiClient({
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'k',
      budget: unlimited(),
      retries: 0,
    });
    const net = await closedPort.me();
    expect(!net.ok && [net.error.code, net.error.reaction]).toEqual(['NETWORK', 'retry']);
  });
});
