import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer } from '../../support/reference-server';

// POST /__admin/v1/files/seed: many files at once for benchmarks and tests, each its own object.

let srv: Awaited<ReturnType<typeof startTestServer>>;
let clientId: number;
let key: string;
beforeAll(async () => {
  srv = await startTestServer({ ratePerMinute: 0 });
  const r = await srv.admin('POST', '/clients', { name: 'Seeded' });
  clientId = r.json.client.id;
  key = r.json.api_key;
});
afterAll(() => srv.stop());

const api = (method: string, path: string) =>
  call(`${srv.baseUrl}/api/assets/v1${path}`, { method, headers: { authorization: `Bearer ${key}` } });

describe('seeding files through the admin surface', () => {
  it('makes N listed, served files across buckets, times rising with ids; deleting one leaves the others', async () => {
    const r = await srv.admin('POST', '/files/seed', {
      client_id: clientId,
      count: 2_500,
      buckets: ['one', 'two'],
      extension: 'png',
      bytes: 300,
      prefix: 'pic-',
    });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ client_id: clientId, count: 2_500 });
    expect(r.json.last_id - r.json.first_id).toBe(2_499);

    const page1 = await api('GET', '/files?per_page=100');
    expect(page1.json.meta).toMatchObject({ total: 2_500, last_page: 25 });
    const newest = page1.json.data[0];
    expect(newest).toMatchObject({
      id: r.json.last_id,
      name: 'pic-2500.png',
      bucket: 'two',
      mime: 'image/png',
      size_bytes: 300,
      hash: r.json.md5,
    });
    const dates = page1.json.data.map((f: { created_at: string }) => f.created_at);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect((await api('GET', '/files?bucket=one')).json.meta.total).toBe(1_250);

    const body = await call(newest.url);
    expect(body.status).toBe(200);
    expect(String(body.json).length).toBe(300);
    const other = page1.json.data[1];
    expect((await api('DELETE', `/files/${newest.id}`)).status).toBe(202);
    expect((await call(newest.url)).status).toBe(404);
    expect((await call(other.url)).status).toBe(200);
    expect((await api('GET', '/me')).json.data.usage).toMatchObject({
      files_count: 2_499,
      bytes_used: 2_499 * 300,
    });

    // A second seed goes on after the newest file: times never fall behind ids.
    const again = await srv.admin('POST', '/files/seed', { client_id: clientId, count: 3 });
    expect(again.status).toBe(201);
    const top = (await api('GET', '/files?per_page=4')).json.data;
    expect(top.map((f: { created_at: string }) => f.created_at)).toEqual(
      [...top.map((f: { created_at: string }) => f.created_at)].sort().reverse(),
    );
    expect(top[0]).toMatchObject({ name: 'seed-3.pdf', bucket: 'default', size_bytes: 1024 });
  });

  it('counts the API requests that reach a route, refused ones too (GET/DELETE /__admin/v1/requests)', async () => {
    expect((await srv.admin('DELETE', '/requests')).json).toEqual({
      total: 0,
      rate_limited: 0,
      by_route: {},
      bytes_by_route: {},
    });
    await api('GET', '/files?page=2');
    await api('GET', '/files');
    await api('GET', '/files/1');
    await call(`${srv.baseUrl}/api/assets/v1/me`);
    const r = await srv.admin('GET', '/requests');
    expect(r.json).toMatchObject({
      total: 4,
      rate_limited: 0,
      by_route: { 'GET /files': 2, 'GET /files/:id': 1, 'GET /me': 1 },
    });
    // Each request's bytes as read: a GET is its request line and headers, some dozens of bytes.
    const bytes = r.json.bytes_by_route as Record<string, number>;
    expect(Object.keys(bytes).sort()).toEqual(['GET /files', 'GET /files/:id', 'GET /me']);
    for (const n of Object.values(bytes)) expect(n).toBeGreaterThan(30);
  });

  it('counts the bytes an upload sent, its body whole (bytes_by_route)', async () => {
    await srv.admin('DELETE', '/requests');
    const body = randomBytes(300_000);
    const form = new FormData();
    form.set('file', new Blob([body]), 'counted.pdf');
    const sent = await call(`${srv.baseUrl}/api/assets/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    expect(sent.status).toBe(201);
    const once = (await srv.admin('GET', '/requests')).json;
    expect(once.by_route).toEqual({ 'POST /files': 1 });
    // The body and its multipart framing, the request line and headers: no more than a few hundred bytes over.
    expect(once.bytes_by_route['POST /files']).toBeGreaterThanOrEqual(body.length);
    expect(once.bytes_by_route['POST /files']).toBeLessThan(body.length + 2_000);
  });

  it('refuses bad bodies with 400 naming the field, unknown clients with 404, and needs the token', async () => {
    const bad: [unknown, string][] = [
      [{ client_id: clientId, count: 0 }, 'count'],
      [{ client_id: clientId, count: 200_001 }, 'count'],
      [{ client_id: clientId, count: 1, bucket: 'Bad_Bucket' }, 'bucket'],
      [{ client_id: clientId, count: 1, extension: 'exe' }, 'extension'],
      [{ client_id: clientId, count: 1, bytes: 0 }, 'bytes'],
      [{ client_id: clientId, count: 1, prefix: '../x' }, 'prefix'],
      [{ client_id: clientId, count: 1, bucket: 'a', buckets: ['b'] }, 'not both'],
      [{ client_id: clientId, count: 1, colour: 'red' }, 'colour'],
      [{ count: 1 }, 'client_id'],
    ];
    for (const [body, word] of bad) {
      const r = await srv.admin('POST', '/files/seed', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error, JSON.stringify(body)).toContain(word);
    }
    expect((await srv.admin('POST', '/files/seed', { client_id: 999, count: 1 })).status).toBe(404);
    expect((await srv.admin('POST', '/files/seed', { client_id: clientId, count: 1 }, 'wrong')).status).toBe(
      401,
    );
  });
});
