import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningRelay, startRelay } from '../../src-main/relay/relay-server';
import { deliver, leadBody, readFeed, signBody } from '../relay/helpers';
import { jsonBodyArb, leadDeliveryArb, requestArb } from './http-arbitraries';
import { getStatus } from './raw-client';
import { fuzz, summary } from './run-fuzz';

// The relay is on the internet by design: thousands of generated requests to its webhook path (most
// signed so they reach the shape check and the store), its feed and marks routes with and without
// the read token. None may answer 5xx or stop it, and it must still take and hand on a lead after.
const SECRET = 'fuzz-signing-secret';
const sign = (body: Buffer) => ({
  'X-Service-Signature': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`,
});

let dir: string;
let relay: RunningRelay;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fuzz-relay-'));
  relay = await startRelay({ dataDir: dir, port: 0, log: () => {} });
});
afterAll(async () => {
  await relay.close();
  rmSync(dir, { recursive: true, force: true });
});

const markLike = fc
  .record({
    marks: fc.oneof(
      fc.array(
        fc.record({
          botId: fc.oneof(fc.nat(), fc.jsonValue()),
          conversationId: fc.oneof(fc.integer(), fc.jsonValue()),
          handled: fc.oneof(fc.boolean(), fc.jsonValue()),
          by: fc.string({ maxLength: 120 }),
          at: fc.constantFrom('2025-01-01T00:00:00.000Z', 'yesterday', ''),
          sig: fc.constantFrom('0'.repeat(64), 'zz', ''),
        }),
        { maxLength: 3 },
      ),
      fc.jsonValue(),
    ),
  })
  .map((o) => Buffer.from(JSON.stringify(o)));

it('answers thousands of generated requests without a 5xx and keeps taking and handing on leads', async () => {
  const hook = new URL(relay.webhookUrl).pathname;
  const outcome = await fuzz({
    port: () => relay.port,
    arb: requestArb({
      host: `127.0.0.1:${relay.port}`,
      paths: [
        hook,
        hook,
        hook,
        `${hook}?x=1`,
        `${hook}/`,
        '/hooks/wh_guess',
        '/v1/feed?after=0',
        '/v1/feed?after=99999999999999999999&limit=5',
        '/v1/feed?after=-1&wait=x',
        '/v1/marks',
        '/v1/status',
        '/healthz',
        '/',
      ],
      credentials: [
        { 'Content-Type': 'application/json', Authorization: `Bearer ${relay.token}` },
        { 'Content-Type': 'application/json' },
        { Authorization: 'Bearer rlt_wrong' },
      ],
      bodies: fc.oneof(
        leadDeliveryArb,
        markLike,
        jsonBodyArb(['event', 'bot', 'lead', 'conversation', 'marks']),
      ),
      sign,
    }),
    numRuns: 300,
    alive: async () => {
      expect(await getStatus(relay.port, '/healthz')).toBe(200);
    },
  });
  console.log(`relay fuzz: ${summary(outcome)}`);
  // The generator reaches every door: stored, refused for shape, unsigned, no token.
  for (const status of [200, 401, 404, 422]) expect(outcome.statuses.get(status) ?? 0).toBeGreaterThan(0);

  const body = leadBody(424_242);
  expect(
    (await deliver(relay.webhookUrl, body, { 'x-service-signature': signBody(body, SECRET) })).status,
  ).toBe(200);
  const feed = await readFeed(relay, 'after=0&limit=500');
  expect(feed.status).toBe(200);
  let found = false;
  let after = 0;
  for (let page = feed.json; ; page = (await readFeed(relay, `after=${after}&limit=500`)).json) {
    found ||= page.deliveries.some(
      (d: { body: string }) => Buffer.from(d.body, 'base64').toString() === body,
    );
    if (page.next === after) break;
    after = page.next;
  }
  expect(found).toBe(true);
}, 180_000);
