import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningServer, startReferenceServer } from '../../src-main/reference-server/server';
import { jsonBodyArb, multipartArb, requestArb } from './http-arbitraries';
import { getStatus } from './raw-client';
import { fuzz, summary } from './run-fuzz';

// The embedded reference server runs inside the app as the sandbox: generated requests at its
// three surfaces (file API, knowledge entries, admin) and its CDN, with and without valid
// credentials. The admin calls that move the clock, inject faults or raise webhook events are left
// out: they are the test harness's controls, and would make the run slow or reach the network.
let dir: string;
let server: RunningServer;
let port: number;
let cdnPath: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fuzz-ref-'));
  server = await startReferenceServer({ dataDir: join(dir, 'data'), ratePerMinute: 0, kbRatePerMinute: 0 });
  port = Number(new URL(server.baseUrl).port);
  const form = new FormData();
  form.set('file', new Blob(['hello']), 'hello.txt');
  const r = await fetch(`${server.baseUrl}/api/assets/v1/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.demo?.api_key}` },
    body: form,
  });
  cdnPath = new URL(((await r.json()) as { data: { url: string } }).data.url).pathname;
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

it('answers thousands of generated requests without a 5xx and keeps serving', async () => {
  const host = `127.0.0.1:${port}`;
  const good = fc.constantFrom(
    'site',
    'default',
    'a.txt',
    '0123456789abcdef0123456789abcdef',
    'http://127.0.0.1:1/a.txt',
    `${server.baseUrl}${cdnPath}`,
    1,
    100,
    -5,
    0.5,
  );
  const outcome = await fuzz({
    port: () => port,
    arb: requestArb({
      host,
      paths: [
        '/api/assets/v1/me',
        '/api/assets/v1/files',
        '/api/assets/v1/files?page=2&per_page=1000&bucket=site',
        '/api/assets/v1/files?page=x&per_page=1e3',
        '/api/assets/v1/files/1',
        '/api/assets/v1/files/99999999999999999999',
        '/api/assets/v1/usage?days=7',
        '/api/assets/v1/usage?days=0',
        '/api/mebot/kb/entries',
        '/api/mebot/kb/entries/1',
        '/api/mebot/kb/entries/abc',
        '/__admin/v1/clock',
        '/__admin/v1/clients',
        '/__admin/v1/clients/1/keys',
        '/__admin/v1/clients/1/wallet',
        // Key 1 is the demo key the liveness check uses; later keys are minted by the run itself.
        '/__admin/v1/keys/2',
        '/__admin/v1/bots',
        '/__admin/v1/bots/1',
        '/__admin/v1/deliveries?limit=5',
        cdnPath,
        '/storage/1/site/nope.txt',
        '/',
      ],
      credentials: [
        { Authorization: `Bearer ${server.demo?.api_key}` },
        { Authorization: `Bearer ${server.demo?.api_key}`, 'Content-Type': 'application/json' },
        {
          Authorization: `Bearer ${server.demo?.api_key}`,
          'Content-Type': 'multipart/form-data; boundary=XyZ',
        },
        { 'X-Bot-Token': String(server.demo?.bot_token), 'Content-Type': 'application/json' },
        { 'X-Admin-Token': server.adminToken, 'Content-Type': 'application/json' },
        { 'X-Bot-Token': String(server.demo?.bot_token) },
        { 'X-Admin-Token': server.adminToken },
        { Authorization: 'Bearer ask_wrong', 'X-Bot-Token': 'wrong', 'X-Admin-Token': 'wrong' },
      ],
      bodies: fc.oneof(
        jsonBodyArb(
          [
            'source_url',
            'bucket',
            'hash',
            'name',
            'title',
            'description',
            'wallet_paise',
            'default_bucket',
            'amount_paise',
            'client_id',
            'business_name',
            'webhook_url',
          ],
          good,
        ),
        multipartArb,
      ),
    }),
    numRuns: 200,
    alive: async () => {
      expect(
        await getStatus(port, '/api/assets/v1/me', { Authorization: `Bearer ${server.demo?.api_key}` }),
      ).toBe(200);
    },
  });
  console.log(`reference server fuzz: ${summary(outcome)}`);
  expect(outcome.statuses.get(200)).toBeGreaterThan(0);
  expect(outcome.statuses.get(422)).toBeGreaterThan(0);
});
