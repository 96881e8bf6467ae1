import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botIds } from '../../src-main/core/kb/bots';
import { createKbService } from '../../src-main/core/kb/kb-service';
import { CORE_KB_MIGRATIONS } from '../../src-main/core/kb/migrations';
import { createLeadsService, type LeadsService } from '../../src-main/core/leads/leads-service';
import { LEADS_MIGRATIONS } from '../../src-main/core/leads/migrations';
import type { RunningServer } from '../../src-main/reference-server/server';
import { type Db, openDatabase } from '../../src-main/shared-node/sqlite';
import type { LeadView } from '../../src-shared/contract/leads';
import { admin, must, removeDir, startServer, tempDir, testKeychain } from '../kb/helpers';
import { until } from '../support/wait';

/**
 * Leads from the reference server's real webhook to the app's receiver. A small forwarding proxy
 * plays the unreliable network: it can answer 500 after the receiver already stored the lead (the
 * service then retries a delivery that did land), or refuse before forwarding.
 */
interface Delivery {
  id: number;
  state: string;
  attempts: { status: number | null }[];
}

describe('leads delivered by the reference server', () => {
  const dir = tempDir('leads-webhook-');
  const keychain = testKeychain();
  let server: RunningServer;
  let db: Db;
  let leads: LeadsService;
  let kb: ReturnType<typeof createKbService>;
  const arrived: LeadView[] = [];
  let proxy: Server;
  let proxyUrl: string;
  let mode: 'forward' | 'forward-then-fail' | 'refuse' = 'forward';

  beforeAll(async () => {
    server = await startServer(join(dir, 'server'), 0, { webhookTimeoutMs: 2000 });
    db = openDatabase(join(dir, 'app.sqlite'), [...CORE_KB_MIGRATIONS, ...LEADS_MIGRATIONS]);
    leads = createLeadsService({
      db,
      secrets: keychain,
      botIds: () => botIds(db),
      onLead: (l) => arrived.push(l),
    });
    kb = createKbService({ db, secrets: keychain, signing: leads.signing, onSnapshot: () => {} });
    must(await leads.start());
    const target = leads.receiver().url!;
    proxy = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const current = mode;
      if (current !== 'forward') mode = 'forward';
      if (current === 'refuse') {
        res.writeHead(503).end();
        return;
      }
      const fwd = await request(target, {
        method: 'POST',
        body: Buffer.concat(chunks),
        headers: {
          'content-type': String(req.headers['content-type']),
          'x-service-signature': String(req.headers['x-service-signature']),
          'x-service-event': String(req.headers['x-service-event']),
        },
      });
      const text = await fwd.body.text();
      if (current === 'forward-then-fail') res.writeHead(500).end('proxy lost the reply');
      else res.writeHead(fwd.statusCode, { 'content-type': 'application/json' }).end(text);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    await new Promise((r) => proxy.close(r));
    await leads.stop();
    await kb.stop();
    await server.close();
    db.close();
    keychain.cleanup();
    removeDir(dir);
  });

  const raise = async (botRemoteId: number, event: string, name: string) => {
    const r = await admin(server, 'POST', `/bots/${botRemoteId}/events`, {
      event,
      lead: {
        name,
        email: `${name.toLowerCase()}@example.com`,
        phone: '+91 90000 22222',
        note: 'call after 5',
      },
    });
    expect(r.status).toBe(202);
    return r.json as { conversation_id: number; delivery_id: number };
  };
  const delivery = async (botRemoteId: number, id: number) =>
    ((await admin(server, 'GET', `/deliveries?bot_id=${botRemoteId}`)).json.deliveries as Delivery[]).find(
      (d) => d.id === id,
    );

  it('sets up the sandbox bot by itself: a lead raised through the admin surface arrives, once', async () => {
    const botId = must(
      await kb.setUpSandbox({
        baseUrl: server.baseUrl,
        adminToken: 'test-admin-token',
        webhookUrl: leads.receiver().url,
      }),
    );
    const bot = kb.bot(botId)!;
    expect(bot.isSandbox).toBe(true);
    // Secrets are in the keychain only: nothing of them in SQLite.
    const dump = JSON.stringify(db.prepare('SELECT * FROM kb_bots').all());
    expect(keychain.get(`bot-token:${botId}`)).toBeTruthy();
    expect(dump).not.toContain(keychain.get(`bot-token:${botId}`)!);
    expect(dump).not.toContain(keychain.get(`signing-secret:${botId}`)!);

    const d = await raise(bot.remoteBotId!, 'HANDOFF-REQUESTED', 'Kavya');
    await until(
      'the delivery DELIVERED',
      async () => (await delivery(bot.remoteBotId!, d.delivery_id))?.state === 'DELIVERED',
    );
    expect(arrived.map((l) => [l.name, l.event, l.askedForAPerson, l.conversationId])).toEqual([
      ['Kavya', 'HANDOFF-REQUESTED', true, d.conversation_id],
    ]);

    // A second start (new admin token run, same server) reuses the bot and re-points its webhook.
    expect(
      must(
        await kb.setUpSandbox({
          baseUrl: server.baseUrl,
          adminToken: 'test-admin-token',
          webhookUrl: proxyUrl,
        }),
      ),
    ).toBe(botId);
  });

  it('a receiver that fails once after storing: the retry is acknowledged, and there is one lead, not two', async () => {
    const bot = kb.bots().find((b) => b.isSandbox)!;
    arrived.length = 0;
    mode = 'forward-then-fail';
    const d = await raise(bot.remoteBotId!, 'LEAD-CAPTURED', 'Arjun');
    await until(
      'the first attempt',
      async () => (await delivery(bot.remoteBotId!, d.delivery_id))?.attempts.length === 1,
    );
    expect((await delivery(bot.remoteBotId!, d.delivery_id))?.state).toBe('PENDING');
    expect(arrived).toHaveLength(1);

    expect((await admin(server, 'POST', '/clock/advance', { seconds: 61 })).status).toBe(200);
    await until(
      'the delivery DELIVERED',
      async () => (await delivery(bot.remoteBotId!, d.delivery_id))?.state === 'DELIVERED',
    );
    const final = await delivery(bot.remoteBotId!, d.delivery_id);
    expect(final?.attempts.map((a) => a.status)).toEqual([500, 200]);
    expect(arrived).toHaveLength(1);
    expect(leads.list().filter((l) => l.conversationId === d.conversation_id)).toHaveLength(1);
  });

  it('a receiver that refuses once: the retry delivers the lead, stored once', async () => {
    const bot = kb.bots().find((b) => b.isSandbox)!;
    arrived.length = 0;
    mode = 'refuse';
    const d = await raise(bot.remoteBotId!, 'LEAD-CAPTURED', 'Neha');
    await until(
      'the first attempt',
      async () => (await delivery(bot.remoteBotId!, d.delivery_id))?.attempts.length === 1,
    );
    expect(arrived).toHaveLength(0);
    await admin(server, 'POST', '/clock/advance', { seconds: 61 });
    await until(
      'the delivery DELIVERED',
      async () => (await delivery(bot.remoteBotId!, d.delivery_id))?.state === 'DELIVERED',
    );
    expect(arrived.map((l) => l.name)).toEqual(['Neha']);
    const all = leads.list();
    expect(all.map((l) => l.name)).toEqual(['Neha', 'Arjun', 'Kavya']);
    expect(leads.list({ event: 'HANDOFF-REQUESTED' }).map((l) => l.name)).toEqual(['Kavya']);
    const csv = leads.exportCsv().csv.split('\r\n');
    expect(csv[0]).toMatch(
      /^received_at \(this computer's clock; ISO 8601 in IST \+05:30\),event,handoff,name,email,phone/,
    );
    // Issue 34: the header says the times' form and clock; the event's words follow its code, last.
    expect(csv[0]).toMatch(
      /,started_at \(the service's clock; ISO 8601 in IST \+05:30\),handled_at \(this computer's clock; ISO 8601 in IST \+05:30\),event_in_words$/,
    );
    expect(csv).toHaveLength(5);
    expect(csv[1]).toContain('neha@example.com');
    expect(csv[1]).toContain('+91 90000 22222');
    // Issue 23: received_at and started_at in one form, ISO 8601 with +05:30.
    const cells = csv[1]!.split(',');
    const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+05:30$/;
    expect(cells[0]).toMatch(iso);
    expect(cells[11]).toMatch(iso);
  });
});
