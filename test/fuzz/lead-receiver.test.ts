import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLeadsStore } from '../../src-main/core/leads/leads-store';
import { LEADS_MIGRATIONS } from '../../src-main/core/leads/migrations';
import { type RunningReceiver, startLeadReceiver } from '../../src-main/core/leads/receiver';
import { type Db, openDatabase } from '../../src-main/shared-node/sqlite';
import { jsonBodyArb, leadDeliveryArb, requestArb } from './http-arbitraries';
import { getStatus } from './raw-client';
import { fuzz, summary } from './run-fuzz';

// The lead receiver is the one server of the app that the internet reaches (through a tunnel):
// thousands of generated requests, half of them correctly signed so that they get past the
// signature to the JSON and the store; none may answer 5xx or stop it.
const SECRET = 'fuzz-signing-secret';
const sign = (body: Buffer) => ({
  'X-Service-Signature': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`,
});

let dir: string;
let db: Db;
let receiver: RunningReceiver;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fuzz-receiver-'));
  db = openDatabase(join(dir, 'app.sqlite'), LEADS_MIGRATIONS);
  receiver = await startLeadReceiver({
    store: createLeadsStore(db),
    keys: () => [{ botId: 1, secret: SECRET }],
    onLead: () => {},
  });
});
afterAll(async () => {
  await receiver.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

it('answers thousands of generated requests without a 5xx and keeps taking deliveries', async () => {
  const path = receiver.path;
  const outcome = await fuzz({
    port: () => receiver.port,
    arb: requestArb({
      host: `127.0.0.1:${receiver.port}`,
      paths: [path, path, path, `${path}?x=1`, `${path}/`, '/', `${path}%00`],
      credentials: [{ 'Content-Type': 'application/json' }],
      bodies: fc.oneof(leadDeliveryArb, jsonBodyArb(['event', 'bot', 'lead', 'conversation'])),
      sign,
    }),
    numRuns: 300,
    alive: async () => {
      expect(await getStatus(receiver.port, path)).toBe(405);
    },
  });
  console.log(`lead receiver fuzz: ${summary(outcome)}`);
  // The generator reaches the store: some signed leads were taken, some refused as malformed.
  expect(outcome.statuses.get(200)).toBeGreaterThan(0);
  expect(outcome.statuses.get(400)).toBeGreaterThan(0);
  expect(outcome.statuses.get(401)).toBeGreaterThan(0);
  // Signed but of the wrong shape: refused naming the field (issue 22), not a 400 after a throw.
  expect(outcome.statuses.get(422)).toBeGreaterThan(0);
});
