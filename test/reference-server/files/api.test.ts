import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AccountSchema,
  DeleteReplySchema,
  ListMetaSchema,
  RemoteFileSchema,
} from '../../../src-shared/api/file-hosting';
import { ALLOWED_EXTENSIONS } from '../../../src-shared/domain/extensions';
import { call, md5, startServer, type TestServer } from './helpers';

let s: TestServer;
let key: string;
let clientId: number;

beforeAll(async () => {
  s = await startServer();
  key = String(s.server.demo!.api_key);
  clientId = Number(s.server.demo!.client_id);
});
afterAll(() => s.stop());

describe('GET /me', () => {
  it('answers the demo account with every documented field', async () => {
    const r = await s.api(key, 'GET', '/me');
    expect(r.status).toBe(200);
    const me = AccountSchema.strict().parse(r.json.data);
    expect(me.client).toEqual({ id: clientId, name: 'Demo', status: 'ACTIVE', default_bucket: 'default' });
    expect(me.wallet).toEqual({ balance_paise: 10_000, min_balance_to_upload_paise: 5_000 });
    expect(me.arrears).toEqual({ paise: 0, since: null, deadline: null });
    expect(me.pricing).toEqual({
      per_gb_month_paise: 500,
      max_file_bytes: 209_715_200,
      allowed_extensions: [...ALLOWED_EXTENSIONS],
      grace_days: 30,
    });
  });
});

describe('upload, read, list, delete', () => {
  it('uploads multipart: 201, a File whose URL serves the bytes at once', async () => {
    const body = 'hello, world\n';
    const r = await s.upload(key, 'notes.txt', body, {
      bucket: 'docs',
      name: 'My notes.txt',
      hash: md5(body),
    });
    expect(r.status).toBe(201);
    const f = RemoteFileSchema.strict().parse(r.json.data);
    expect(f).toMatchObject({
      bucket: 'docs',
      name: 'My notes.txt',
      extension: 'txt',
      mime: 'text/plain',
      size_bytes: body.length,
      hash: md5(body),
      status: 'ACTIVE',
    });
    expect(f.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect(f.url).toMatch(new RegExp(`^${s.server.cdnUrl}/storage/${clientId}/docs/[a-z0-9]+-notes\\.txt$`));
    const cdn = await fetch(f.url);
    expect(cdn.status).toBe(200);
    expect(cdn.headers.get('content-type')).toBe('text/plain');
    expect(cdn.headers.get('content-length')).toBe(String(body.length));
    expect(cdn.headers.get('etag')).toBe(`"${md5(body)}"`);
    expect(await cdn.text()).toBe(body);
    const one = await s.api(key, 'GET', `/files/${f.id}`);
    expect(one.status).toBe(200);
    expect(one.json.data).toEqual(f);
    const me = await s.api(key, 'GET', '/me');
    expect(me.json.data.usage).toMatchObject({ files_count: 1, bytes_used: body.length });
  });

  it('uses the default bucket when none is sent, and keeps unicode names', async () => {
    const r = await s.upload(key, 'résumé 履歴書.pdf', '%PDF-1.4');
    expect(r.status).toBe(201);
    expect(r.json.data).toMatchObject({ bucket: 'default', name: 'résumé 履歴書.pdf', extension: 'pdf' });
    const cdn = await fetch(r.json.data.url);
    expect(cdn.status).toBe(200);
    expect(await cdn.text()).toBe('%PDF-1.4');
  });

  it('makes path separators, .. and control characters safe in the URL; the display name keeps the rest', async () => {
    const r = await s.upload(key, '../../etc/pass\u0007wd.txt', 'x');
    expect(r.status).toBe(201);
    expect(r.json.data.name).toBe('../../etc/passwd.txt');
    const url: string = r.json.data.url;
    const last = decodeURIComponent(url.split('/').pop()!);
    expect(last).toMatch(/^[a-z0-9]+-\.\._\.\._etc_passwd\.txt$/);
    expect(url.startsWith(`${s.server.cdnUrl}/storage/${clientId}/default/`)).toBe(true);
    expect(await (await fetch(url)).text()).toBe('x');
  });

  it('lists live files newest first with meta, filters by bucket, clamps per_page', async () => {
    const all = await s.api(key, 'GET', '/files');
    expect(all.status).toBe(200);
    ListMetaSchema.strict().parse(all.json.meta);
    const ids = all.json.data.map((f: { id: number }) => f.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(all.json.meta).toEqual({ page: 1, per_page: 25, total: ids.length, last_page: 1 });
    const docs = await s.api(key, 'GET', '/files?bucket=docs');
    expect(docs.json.data.every((f: { bucket: string }) => f.bucket === 'docs')).toBe(true);
    expect(docs.json.meta.total).toBe(1);
    const p2 = await s.api(key, 'GET', '/files?per_page=1&page=2');
    expect(p2.json.data.map((f: { id: number }) => f.id)).toEqual([ids[1]]);
    expect(p2.json.meta).toEqual({ page: 2, per_page: 1, total: ids.length, last_page: ids.length });
    expect((await s.api(key, 'GET', '/files?per_page=0')).json.meta.per_page).toBe(1);
    expect((await s.api(key, 'GET', '/files?per_page=1000')).json.meta.per_page).toBe(100);
    expect((await s.api(key, 'GET', '/files?page=-3')).json.meta.page).toBe(1);
    const past = await s.api(key, 'GET', '/files?page=99');
    expect(past.json.data).toEqual([]);
    expect(past.json.meta.page).toBe(99);
  });

  it('deletes with 202, idempotently; the file leaves lists, reads and the CDN at once', async () => {
    const up = await s.upload(key, 'gone.json', '{}');
    const id = up.json.data.id;
    const d1 = await s.api(key, 'DELETE', `/files/${id}`);
    expect(d1.status).toBe(202);
    expect(DeleteReplySchema.strict().parse(d1.json.data)).toEqual({ id, status: 'DELETED' });
    const d2 = await s.api(key, 'DELETE', `/files/${id}`);
    expect(d2.status).toBe(202);
    expect(d2.json.data).toEqual({ id, status: 'DELETED' });
    expect((await s.api(key, 'GET', `/files/${id}`)).json.code).toBe('GONE');
    const list = await s.api(key, 'GET', '/files?per_page=100');
    expect(list.json.data.some((f: { id: number }) => f.id === id)).toBe(false);
    expect((await fetch(up.json.data.url)).status).toBe(404);
  });
});

describe('the CDN', () => {
  it('answers ranges (206, 416), HEAD and conditional requests', async () => {
    const body = '0123456789';
    const { url } = (await s.upload(key, 'digits.txt', body)).json.data;
    const part = await fetch(url, { headers: { range: 'bytes=2-5' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 2-5/10');
    expect(await part.text()).toBe('2345');
    const tail = await fetch(url, { headers: { range: 'bytes=-3' } });
    expect(await tail.text()).toBe('789');
    const open = await fetch(url, { headers: { range: 'bytes=7-' } });
    expect(await open.text()).toBe('789');
    const bad = await fetch(url, { headers: { range: 'bytes=10-12' } });
    expect(bad.status).toBe(416);
    expect(bad.headers.get('content-range')).toBe('bytes */10');
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('10');
    expect(await head.text()).toBe('');
    const cached = await fetch(url, { headers: { 'if-none-match': `"${md5(body)}"` } });
    expect(cached.status).toBe(304);
    expect((await fetch(`${s.server.cdnUrl}/storage/${clientId}/default/nothing.txt`)).status).toBe(404);
  });
});

describe('two clients', () => {
  it('cannot see, read, delete or fetch through the API each other’s files', async () => {
    const other = await s.newClient({ name: 'Other', default_bucket: 'other' });
    const mine = (await s.upload(key, 'private.txt', 'secret')).json.data;
    const theirs = await s.api(other.api_key, 'GET', `/files/${mine.id}`);
    expect(theirs.status).toBe(410);
    expect(theirs.json.code).toBe('GONE');
    expect((await s.api(other.api_key, 'DELETE', `/files/${mine.id}`)).status).toBe(410);
    const list = await s.api(other.api_key, 'GET', '/files');
    expect(list.json).toEqual({ data: [], meta: { page: 1, per_page: 25, total: 0, last_page: 1 } });
    expect((await s.api(key, 'GET', `/files/${mine.id}`)).status).toBe(200);
    const me = await s.api(other.api_key, 'GET', '/me');
    expect(me.json.data.client).toMatchObject({ name: 'Other', default_bucket: 'other' });
    expect(me.json.data.usage.files_count).toBe(0);
  });
});

describe('upload from a URL', () => {
  it('downloads the source and answers 201 with the same checks', async () => {
    const { createServer } = await import('node:http');
    const source = createServer((req, res) => {
      if (req.url === '/logo.svg') res.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg/>');
      else if (req.url === '/empty.txt') res.writeHead(200).end();
      else if (req.url === '/moved.txt') res.writeHead(302, { location: '/logo.svg' }).end();
      else res.writeHead(404).end('no');
    });
    await new Promise<void>((r) => source.listen(0, '127.0.0.1', r));
    const port = (source.address() as { port: number }).port;
    const json = (body: unknown) => ({
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    try {
      const ok = await s.api(
        key,
        'POST',
        '/files',
        json({ source_url: `http://127.0.0.1:${port}/logo.svg`, bucket: 'img', hash: md5('<svg/>') }),
      );
      expect(ok.status).toBe(201);
      expect(ok.json.data).toMatchObject({
        bucket: 'img',
        name: 'logo.svg',
        extension: 'svg',
        mime: 'image/svg+xml',
        size_bytes: 6,
      });
      expect(await (await call(ok.json.data.url)).json).toBe('<svg/>');
      const missing = await s.api(
        key,
        'POST',
        '/files',
        json({ source_url: `http://127.0.0.1:${port}/nope.txt` }),
      );
      expect([missing.status, missing.json.code]).toEqual([422, 'SOURCE-UNREACHABLE']);
      const empty = await s.api(
        key,
        'POST',
        '/files',
        json({ source_url: `http://127.0.0.1:${port}/empty.txt` }),
      );
      expect([empty.status, empty.json.code]).toEqual([422, 'SOURCE-UNREACHABLE']);
      const moved = await s.api(
        key,
        'POST',
        '/files',
        json({ source_url: `http://127.0.0.1:${port}/moved.txt` }),
      );
      expect(moved.status).toBe(201);
      const mismatch = await s.api(
        key,
        'POST',
        '/files',
        json({ source_url: `http://127.0.0.1:${port}/logo.svg`, hash: md5('x') }),
      );
      expect([mismatch.status, mismatch.json.code]).toEqual([422, 'HASH-MISMATCH']);
      const exe = await s.api(
        key,
        'POST',
        '/files',
        json({ source_url: `http://127.0.0.1:${port}/tool.exe` }),
      );
      expect([exe.status, exe.json.code]).toEqual([415, 'EXTENSION-NOT-ALLOWED']);
      const closedPort = await s.api(key, 'POST', '/files', json({ source_url: 'http://127.0.0.1:1/a.txt' }));
      expect([closedPort.status, closedPort.json.code]).toEqual([422, 'SOURCE-UNREACHABLE']);
    } finally {
      await new Promise((r) => source.close(r));
    }
    expect(s.tempFiles()).toEqual([]);
  });
});
