import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createLeadsService } from '../../src-main/core/leads/leads-service';
import { LEADS_MIGRATIONS } from '../../src-main/core/leads/migrations';
import { signingSecretAccount } from '../../src-main/core/leads/signing-keys';
import { RELAY_MIGRATIONS } from '../../src-main/relay/relay-db';
import type { RunningRelay } from '../../src-main/relay/relay-server';
import { type Db, openDatabase } from '../../src-main/shared-node/sqlite';
import { memorySecrets } from '../support/secrets';
import { deliver, leadBody, relays, signBody } from './helpers';

// What a stranger can do to the leads a relay hands on (issue 32), checked on real desks pulling
// from a real relay: each desk pulls with pullOnce (the CLI's), so nothing runs between the steps.
const SECRET = 'whsec_shared_by_the_team';
const BOT = 7;
const r = relays();
const dirs: string[] = [];
const opened: { db: Db; stop(): Promise<void> }[] = [];
afterEach(async () => {
  for (const d of opened.splice(0)) {
    await d.stop();
    d.db.close();
  }
  await r.cleanup();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function openDesk(relay: RunningRelay, name: string) {
  const dir = mkdtempSync(join(tmpdir(), 'desk-'));
  dirs.push(dir);
  const secrets = memorySecrets();
  secrets.set(signingSecretAccount(BOT), SECRET);
  const db = openDatabase(join(dir, 'app.sqlite'), LEADS_MIGRATIONS);
  const leads = createLeadsService({
    db,
    secrets,
    botIds: () => [BOT],
    onLead: () => {},
    receiver: { port: 0 },
    env: { ASSETS_RELAY_URL: relay.url, ASSETS_RELAY_TOKEN: relay.token },
  });
  opened.push({ db, stop: () => leads.stop() });
  return leads;
}

it('an altered copy carrying the genuine signature, posted first, does not hide the real lead', async () => {
  const relay = await r.start({ dataDir: r.dir() });
  const genuine = leadBody(4_001, BOT, 'Ravi');
  const signature = signBody(genuine, SECRET);
  // Same bot, same conversation, the signature of the genuine bytes; other bytes.
  const altered = leadBody(4_001, BOT, 'Mallory');
  expect((await deliver(relay.webhookUrl, altered, { 'x-service-signature': signature })).json).toEqual({
    ok: true,
    duplicate: false,
  });
  expect((await deliver(relay.webhookUrl, genuine, { 'x-service-signature': signature })).json).toEqual({
    ok: true,
    duplicate: false,
  });
  // The service's retry of the genuine one is still one row.
  expect((await deliver(relay.webhookUrl, genuine, { 'x-service-signature': signature })).json).toEqual({
    ok: true,
    duplicate: true,
  });
  expect(relay.stored()).toBe(2);

  const desk = openDesk(relay, 'Asha');
  const pulled = await desk.pullOnce();
  expect(pulled).toMatchObject({ ok: true, value: { added: 1, rejected: 1 } });
  expect(desk.list().map((l) => [l.conversationId, l.name])).toEqual([[4_001, 'Ravi']]);
  expect(desk.rejected()).toMatchObject([{ code: 'SIGNATURE-MISMATCH', claimedName: 'Mallory' }]);
});

it("a relay's database from before keeps its deliveries through migration 2, and their retries stay duplicates", async () => {
  const dataDir = r.dir();
  const body = leadBody(4_002, BOT);
  const before = openDatabase(join(dataDir, 'relay.sqlite'), RELAY_MIGRATIONS.slice(0, 1));
  before
    .prepare(
      `INSERT INTO deliveries (seq, received_at, bot_id, conversation_id, event, signature, content_type, body)
       VALUES (1, ?, ?, 4002, 'LEAD-CAPTURED', ?, 'application/json', ?)`,
    )
    .run(Date.now(), BOT, signBody(body, SECRET), Buffer.from(body));
  before.prepare('UPDATE relay_seq SET last = 1').run();
  before.close();
  const relay = await r.start({ dataDir });
  expect(relay.stored()).toBe(1);
  expect(
    (await deliver(relay.webhookUrl, body, { 'x-service-signature': signBody(body, SECRET) })).json,
  ).toEqual({ ok: true, duplicate: true });
  const desk = openDesk(relay, 'Asha');
  expect(await desk.pullOnce()).toMatchObject({ ok: true, value: { added: 1, rejected: 0 } });
});
