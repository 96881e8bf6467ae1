import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FailureEnvelopeSchema } from '../../../src-shared/api/file-hosting';
import { API, call, md5, type Reply, startServer, type TestServer } from './helpers';

let s: TestServer;
let key: string;

beforeAll(async () => {
  s = await startServer();
  key = String(s.server.demo!.api_key);
});
afterAll(() => s.stop());

/** The failure envelope, exactly: `data` null, `errors` of strings, `code`. */
function expectFailure(r: Reply, status: number, code: string) {
  expect({ status: r.status, code: r.json?.code }).toEqual({ status, code });
  const env = FailureEnvelopeSchema.strict().parse(r.json);
  expect(env.errors.length).toBeGreaterThan(0);
  expect(env.errors.every((e) => e.length > 10)).toBe(true);
}

const json = (body: unknown) => ({
  headers: { 'content-type': 'application/json' },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

describe('401 UNAUTHENTICATED', () => {
  it('answers a missing, malformed, unknown or revoked key, and the retired email+token credentials', async () => {
    expectFailure(await s.api(null, 'GET', '/me'), 401, 'UNAUTHENTICATED');
    expectFailure(
      await s.api(null, 'GET', '/me', { headers: { authorization: key } }),
      401,
      'UNAUTHENTICATED',
    );
    expectFailure(
      await s.api(null, 'GET', '/me', { headers: { authorization: 'Basic abc' } }),
      401,
      'UNAUTHENTICATED',
    );
    expectFailure(await s.api('ask_not-a-real-key', 'GET', '/files'), 401, 'UNAUTHENTICATED');
    const retired = await s.api(null, 'POST', '/files', json({ email: 'a@b.c', token: 'x', model: 'cdn' }));
    expectFailure(retired, 401, 'UNAUTHENTICATED');
    const c = await s.newClient();
    expect((await s.api(c.api_key, 'GET', '/me')).status).toBe(200);
    const revoked = await s.admin('DELETE', `/keys/${c.key_id}`);
    expect(revoked.json).toEqual({ key_id: c.key_id, revoked: true });
    expectFailure(await s.api(c.api_key, 'GET', '/me'), 401, 'UNAUTHENTICATED');
    const second = await s.admin('POST', `/clients/${c.client.id}/keys`);
    expect(second.status).toBe(201);
    expect((await s.api(second.json.api_key, 'GET', '/me')).status).toBe(200);
  });
});

describe('402 LOW-BALANCE', () => {
  it('refuses uploads under the 5,000 paise floor and allows them again at the floor', async () => {
    const c = await s.newClient({ wallet_paise: 4_999 });
    expectFailure(await s.upload(c.api_key, 'a.txt', 'a'), 402, 'LOW-BALANCE');
    expect((await s.admin('POST', `/clients/${c.client.id}/wallet`, { amount_paise: 1 })).json).toEqual({
      balance_paise: 5_000,
      arrears_paise: 0,
    });
    expect((await s.upload(c.api_key, 'a.txt', 'a')).status).toBe(201);
  });
});

describe('422 VALIDATION and bad input', () => {
  it('refuses bodies that are not an upload, naming the problem, and never 500s', async () => {
    expectFailure(await s.api(key, 'POST', '/files', json('{"source_url": ')), 422, 'VALIDATION');
    expectFailure(await s.api(key, 'POST', '/files', json({})), 422, 'VALIDATION');
    expectFailure(await s.api(key, 'POST', '/files', json([1, 2])), 422, 'VALIDATION');
    expectFailure(await s.api(key, 'POST', '/files', json({ source_url: 42 })), 422, 'VALIDATION');
    expectFailure(await s.api(key, 'POST', '/files', json({ source_url: 'not a url' })), 422, 'VALIDATION');
    expectFailure(
      await s.api(key, 'POST', '/files', json({ source_url: 'ftp://x/a.txt' })),
      422,
      'VALIDATION',
    );
    const text = await s.api(key, 'POST', '/files', {
      headers: { 'content-type': 'text/plain' },
      body: 'hi',
    });
    expectFailure(text, 422, 'VALIDATION');
    expectFailure(await s.api(key, 'POST', '/files'), 422, 'VALIDATION');
    const noFile = new FormData();
    noFile.set('bucket', 'docs');
    expectFailure(await s.api(key, 'POST', '/files', { body: noFile }), 422, 'VALIDATION');
    const two = new FormData();
    two.append('file', new Blob(['a']), 'a.txt');
    two.append('file', new Blob(['b']), 'b.txt');
    expectFailure(await s.api(key, 'POST', '/files', { body: two }), 422, 'VALIDATION');
    const plain = new FormData();
    plain.set('file', 'just text');
    expectFailure(await s.api(key, 'POST', '/files', { body: plain }), 422, 'VALIDATION');
    const wrongField = new FormData();
    wrongField.set('upload', new Blob(['a']), 'a.txt');
    expectFailure(await s.api(key, 'POST', '/files', { body: wrongField }), 422, 'VALIDATION');
    expectFailure(await s.upload(key, 'a.txt', 'a', { hash: 'not-an-md5' }), 422, 'VALIDATION');
    expectFailure(await s.upload(key, 'a.txt', 'a', { name: 'n'.repeat(256) }), 422, 'VALIDATION');
    const broken = await s.api(key, 'POST', '/files', {
      headers: { 'content-type': 'multipart/form-data; boundary=zzz' },
      body: '--zzz\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nabc',
    });
    expectFailure(broken, 422, 'VALIDATION');
    expect((await s.api(key, 'GET', '/files')).json.meta.total).toBe(0);
    expect(s.tempFiles()).toEqual([]);
  });

  it('refuses non-numeric page, per_page, days and ids', async () => {
    for (const q of ['per_page=abc', 'per_page=2.5', 'page=x', 'page=', 'per_page=1e3'])
      expectFailure(await s.api(key, 'GET', `/files?${q}`), 422, 'VALIDATION');
    for (const q of ['days=abc', 'days=0', 'days=91', 'days=-1'])
      expectFailure(await s.api(key, 'GET', `/usage?${q}`), 422, 'VALIDATION');
    expectFailure(await s.api(key, 'GET', '/files/abc'), 422, 'VALIDATION');
    expectFailure(await s.api(key, 'DELETE', '/files/1.5'), 422, 'VALIDATION');
    expectFailure(await s.api(key, 'GET', '/files/99999999999999999999999'), 410, 'GONE');
  });
});

describe('422 HASH-MISMATCH, BUCKET-INVALID; 415; 413', () => {
  it('refuses each, leaving nothing behind', async () => {
    const objects = s.objectCount();
    expectFailure(await s.upload(key, 'a.txt', 'abc', { hash: md5('abd') }), 422, 'HASH-MISMATCH');
    for (const bucket of ['Upper', '-dash', '', 'a'.repeat(51), 'sp ace', 'ünï'])
      expectFailure(await s.upload(key, 'a.txt', 'abc', { bucket }), 422, 'BUCKET-INVALID');
    expectFailure(await s.api(key, 'GET', '/files?bucket=Bad_Bucket'), 422, 'BUCKET-INVALID');
    expectFailure(await s.upload(key, 'tool.exe', 'MZ'), 415, 'EXTENSION-NOT-ALLOWED');
    expectFailure(await s.upload(key, 'README', 'text'), 415, 'EXTENSION-NOT-ALLOWED');
    expectFailure(await s.upload(key, 'empty.txt', ''), 413, 'FILE-TOO-LARGE');
    expect(s.objectCount()).toBe(objects);
    expect(s.tempFiles()).toEqual([]);
    expect((await s.api(key, 'GET', '/files')).json.meta.total).toBe(0);
  });

  it('checks in the documented order when several errors apply', async () => {
    // bucket before extension before size before hash
    expectFailure(await s.upload(key, 'x.exe', '', { bucket: 'BAD', hash: md5('z') }), 422, 'BUCKET-INVALID');
    expectFailure(await s.upload(key, 'x.exe', '', { hash: md5('z') }), 415, 'EXTENSION-NOT-ALLOWED');
    expectFailure(await s.upload(key, 'x.txt', '', { hash: md5('z') }), 413, 'FILE-TOO-LARGE');
    const poor = await s.newClient({ wallet_paise: 0 });
    expectFailure(await s.upload(poor.api_key, 'x.exe', '', { bucket: 'BAD' }), 402, 'LOW-BALANCE');
  });

  it('takes the extension from the file name, the display name from the name field', async () => {
    const r = await s.upload(key, 'scan.PDF', '%PDF', { name: 'Quarterly report' });
    expect(r.status).toBe(201);
    expect(r.json.data).toMatchObject({
      name: 'Quarterly report',
      extension: 'pdf',
      mime: 'application/pdf',
    });
    expect(r.json.data.url).toMatch(/-scan\.PDF$/);
    const blob = await s.upload(key, 'blob', 'x', { name: 'photo.png' });
    expect(blob.json.data).toMatchObject({ name: 'photo.png', extension: 'png' });
  });
});

describe('429 for a while (fault injection, issue 34)', () => {
  it('every API request answers 429 with Retry-After until the period ends or is ended', async () => {
    const on = await s.admin('PUT', '/faults', { rate_limited_seconds: 30 });
    expect(Date.parse(on.json.rate_limited_until)).toBeGreaterThan(Date.now());
    const refused = await s.api(key, 'GET', '/me');
    expectFailure(refused, 429, 'RATE-LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await s.admin('PUT', '/faults', { rate_limited_seconds: 0 })).json.rate_limited_until).toBeNull();
    expect((await s.api(key, 'GET', '/me')).status).toBe(200);
  });
});

describe('502 STORAGE-FAILED and dropped connections (fault injection)', () => {
  it('stores nothing, charges nothing, leaves no temp file', async () => {
    const before = await s.api(key, 'GET', '/me');
    const faults = await s.admin('PUT', '/faults', { storage_fail_rate: 1 });
    expect(faults.json).toEqual({
      storage_fail_rate: 1,
      connection_reset_rate: 0,
      rent_error_paise: 0,
      rate_limited_until: null,
    });
    expectFailure(await s.upload(key, 'a.txt', 'abc'), 502, 'STORAGE-FAILED');
    await s.admin('PUT', '/faults', { storage_fail_rate: 0, connection_reset_rate: 1 });
    await expect(s.upload(key, 'b.txt', 'abc')).rejects.toThrow();
    expect((await s.api(key, 'GET', '/me')).status).toBe(200);
    expect((await s.admin('PUT', '/faults', { connection_reset_rate: 0 })).json.connection_reset_rate).toBe(
      0,
    );
    const after = await s.api(key, 'GET', '/me');
    expect(after.json.data.usage).toEqual(before.json.data.usage);
    expect(after.json.data.wallet).toEqual(before.json.data.wallet);
    expect(s.tempFiles()).toEqual([]);
    expect((await s.admin('PUT', '/faults', { storage_fail_rate: 2 })).status).toBe(400);
  });
});

describe('410 GONE', () => {
  it('answers unknown ids and unknown paths under the API, never 404', async () => {
    expectFailure(await s.api(key, 'GET', '/files/424242'), 410, 'GONE');
    expectFailure(await s.api(key, 'DELETE', '/files/424242'), 410, 'GONE');
    expectFailure(await s.api(key, 'GET', '/nothing-here'), 410, 'GONE');
    expectFailure(await call(`${s.base}${API}/files/1/extra`), 410, 'GONE');
  });
});

describe('429 RATE-LIMITED', () => {
  it('refuses past the limit per minute with the envelope and Retry-After', async () => {
    const limited = await startServer({ ratePerMinute: 3 });
    try {
      const k = String(limited.server.demo!.api_key);
      for (let i = 0; i < 3; i++) expect((await limited.api(k, 'GET', '/me')).status).toBe(200);
      const r = await limited.api(k, 'GET', '/me');
      expectFailure(r, 429, 'RATE-LIMITED');
      const wait = Number(r.headers.get('retry-after'));
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(60);
      expectFailure(await limited.api(null, 'GET', '/me'), 429, 'RATE-LIMITED');
      expect((await limited.admin('GET', '/clock')).status).toBe(200);
    } finally {
      await limited.stop();
    }
  });
});
