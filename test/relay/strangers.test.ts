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

function openDesk(relay: RunningRelay, name: string, now: () => number = Date.now) {
  const dir = mkdtempSync(join(tmpdir(), 'desk-'));
  dirs.push(dir);
  const secrets = memorySecrets();
  secrets.set(signingSecretAccount(BOT), SECRET);
  const db = openDatabase(join(dir, 'app.sqlite'), LEADS_MIGRATIONS);
  // The name shown on "handled" (the app's setting; the address and token come from the environment).
  db.prepare('INSERT INTO leads_relay (id, url, desk_name) VALUES (1, ?, ?)').run(relay.url, name);
  const leads = createLeadsService({
    now,
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

it('"handled" follows what a desk has seen, not its wall clock: a desk an hour behind reopens a lead and every desk agrees', async () => {
  const relay = await r.start({ dataDir: r.dir() });
  const body = leadBody(4_003, BOT);
  await deliver(relay.webhookUrl, body, { 'x-service-signature': signBody(body, SECRET) });
  const asha = openDesk(relay, 'Asha');
  const bilal = openDesk(relay, 'Bilal', () => Date.now() - 60 * 60 * 1000);
  for (const d of [asha, bilal]) expect(await d.pullOnce()).toMatchObject({ ok: true });
  const leadOn = (d: typeof asha) => d.list().find((l) => l.conversationId === 4_003)!;

  // Asha takes it; Bilal sees that, then puts it back to open (his clock says an hour ago).
  asha.setHandled(leadOn(asha).id, true);
  await asha.pullOnce();
  await bilal.pullOnce();
  expect(leadOn(bilal).handledBy).toBe('Asha');
  expect(bilal.setHandled(leadOn(bilal).id, false).ok).toBe(true);
  await bilal.pullOnce();
  await asha.pullOnce();
  for (const d of [asha, bilal]) expect(leadOn(d)).toMatchObject({ handledAt: null, handledBy: null });

  // Then Bilal takes it himself, still an hour behind: his change wins on both desks, and it is his
  // (a desk's change was once sent in the name of the desk whose change it followed).
  bilal.setHandled(leadOn(bilal).id, true);
  await bilal.pullOnce();
  await asha.pullOnce();
  for (const d of [asha, bilal]) expect(leadOn(d)).toMatchObject({ handledBy: 'Bilal' });
});

it('a desk that pulls after retention deleted leads it never read is told how many, once', async () => {
  const dataDir = r.dir();
  const day = 24 * 3600 * 1000;
  let now = Date.parse('2025-01-01T00:00:00Z');
  const before = await r.start({ dataDir, retentionDays: 90, now: () => now });
  for (const id of [4_101, 4_102, 4_103]) {
    const body = leadBody(id, BOT);
    await deliver(before.webhookUrl, body, { 'x-service-signature': signBody(body, SECRET) });
  }
  await before.close();
  now += 95 * day;
  const relay = await r.start({ dataDir, retentionDays: 90, now: () => now });
  const fresh = leadBody(4_104, BOT);
  await deliver(relay.webhookUrl, fresh, { 'x-service-signature': signBody(fresh, SECRET) });

  const desk = openDesk(relay, 'Asha');
  expect(await desk.pullOnce()).toMatchObject({ ok: true, value: { added: 1, expired: 3 } });
  expect(desk.relay()).toMatchObject({ expired: 3 });
  expect(desk.list().map((l) => l.conversationId)).toEqual([4_104]);
  // Said once: the cursor is past them, the count kept.
  expect(await desk.pullOnce()).toMatchObject({ ok: true, value: { added: 0, expired: 0 } });
  expect(desk.relay()).toMatchObject({ expired: 3 });
});
