import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FailureEnvelopeSchema } from '../../../src-shared/api/file-hosting';
import { call, type Reply, startServer, type TestServer } from './helpers';

// Requests that Fastify refuses before any route runs still answer in the API's own shapes.
let s: TestServer;
let key: string;

beforeAll(async () => {
  s = await startServer();
  key = String(s.server.demo!.api_key);
});
afterAll(() => s.stop());

function expectEnvelope(r: Reply, status: number, code: string, mentions: RegExp) {
  expect({ status: r.status, code: r.json?.code }).toEqual({ status, code });
  const env = FailureEnvelopeSchema.strict().parse(r.json);
  expect(env.errors.join(' ')).toMatch(mentions);
}

describe('a malformed percent-escape in the path', () => {
  it('is 422 VALIDATION in the envelope under the file API', async () => {
    for (const path of ['/files/%ff', '/%ff', '/files/1%', '/files/%E0%A4%A'])
      expectEnvelope(await s.api(key, 'GET', path), 422, 'VALIDATION', /percent/);
  });

  it('is each other surface own shape', async () => {
    const kb = await call(`${s.base}/api/mebot/kb/entries/%ff`, { headers: { 'x-bot-token': 'x' } });
    expect(kb.status).toBe(422);
    expect(kb.json).toEqual({ ok: false, error: expect.stringMatching(/percent/) });
    const admin = await call(`${s.base}/__admin/v1/clients/%ff`, {
      headers: { 'x-admin-token': s.server.adminToken },
    });
    expect([admin.status, admin.json]).toEqual([400, { error: expect.stringMatching(/percent/) }]);
    const cdn = await call(`${s.base}/storage/%ff/x.txt`);
    expect([cdn.status, cdn.json]).toEqual([400, { error: expect.stringMatching(/percent/) }]);
  });
});

describe('a JSON body over the limit', () => {
  it('is 422 VALIDATION naming the limit, not FILE-TOO-LARGE (it is not a file)', async () => {
    const r = await s.api(key, 'POST', '/files', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ source_url: `http://example.com/${'a'.repeat(70 * 1024)}.txt`, bucket: 'site' }),
    });
    expectEnvelope(r, 422, 'VALIDATION', /JSON body .*64 KiB/);
  });
});
