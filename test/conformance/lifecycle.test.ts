// reference-server.md, "Starting it": the ready line, the demo on a new folder, --admin-token, a restart
// on the same folder (no demo, everything kept), SIGTERM and SIGINT stopping cleanly with exit code 0.
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type Receiver,
  type RunningServer,
  secondsToNextIstMidnight,
  sortedKeys,
  startReceiver,
  startServer,
  tempDir,
  upload,
  waitFor,
} from './harness';

const dataDir = tempDir();
let server: RunningServer | undefined;
let receiver: Receiver | undefined;

afterAll(async () => {
  await server?.stop('SIGKILL');
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('reference server lifecycle (black box)', () => {
  // What the first run leaves behind, checked after each restart.
  const kept = {
    clientKey: '',
    revokedKey: '',
    clientId: 0,
    fileId: 0,
    fileUrl: '',
    entryId: 0,
    deliveryId: 0,
    conversationId: 0,
    balance: 0,
    clockNow: '',
    usage: [] as unknown[],
  };
  let demo: NonNullable<RunningServer['ready']['demo']>;

  it('prints exactly one ready line with the documented keys and a demo on a new folder', async () => {
    server = await startServer(['--admin-token', 'conformance-admin-T'], dataDir);
    const { ready } = server;
    expect(sortedKeys(ready)).toEqual(['admin_token', 'base_url', 'cdn_url', 'demo', 'event']);
    expect(ready.admin_token).toBe('conformance-admin-T');
    expect(ready.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ready.cdn_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ready.base_url).not.toBe('http://127.0.0.1:0');
    const readyLines = server.stdoutLines.filter((l) => l.includes('"ready"'));
    expect(readyLines).toHaveLength(1);
    expect(sortedKeys(ready.demo!)).toEqual([
      'api_key',
      'bot_id',
      'bot_token',
      'client_id',
      'key_id',
      'signing_secret',
    ]);
    demo = ready.demo!;
    expect(typeof demo.client_id).toBe('number');
    expect(typeof demo.key_id).toBe('number');
    expect(typeof demo.bot_id).toBe('number');
    for (const s of [demo.api_key, demo.bot_token, demo.signing_secret]) {
      expect(typeof s).toBe('string');
      expect(s.length).toBeGreaterThan(0);
    }
  });

  it('made the demo client (Demo, bucket default, wallet 10,000) and its bot (Demo bot, no URL)', async () => {
    const me = await server!.api('GET', '/me', demo.api_key);
    expect(me.status).toBe(200);
    expect(me.json.data.client).toEqual({
      id: demo.client_id,
      name: 'Demo',
      status: 'ACTIVE',
      default_bucket: 'default',
    });
    expect(me.json.data.wallet.balance_paise).toBe(10_000);

    const entries = await server!.kb('GET', '', demo.bot_token);
    expect(entries.status).toBe(200);
    expect(entries.json).toEqual({ ok: true, entries: [] });

    // No webhook URL yet: an event cannot be sent anywhere, so its delivery never succeeds.
    const raised = await server!.admin('POST', `/bots/${demo.bot_id}/events`, {
      event: 'LEAD-CAPTURED',
      lead: { name: 'N', email: 'n@example.test', phone: '1' },
    });
    expect(raised.status).toBe(202);
    const delivery = await waitFor(async () => {
      const r = await server!.admin('GET', `/deliveries?bot_id=${demo.bot_id}`);
      const d = r.json.deliveries.find((x: { id: number }) => x.id === raised.json.delivery_id);
      return d && d.attempts.length > 0 ? d : undefined;
    });
    expect(delivery.state).not.toBe('DELIVERED');

    receiver = await startReceiver();
    const put = await server!.admin('PUT', `/bots/${demo.bot_id}`, { webhook_url: `${receiver.url}/hook` });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({
      bot: {
        id: demo.bot_id,
        name: 'Demo bot',
        business_name: 'Demo business',
        webhook_url: `${receiver.url}/hook`,
      },
    });
  });

  it('uses the --admin-token given: a wrong or missing token answers 401', async () => {
    expect((await server!.admin('GET', '/clock')).status).toBe(200);
    expect((await server!.admin('GET', '/clock', undefined, 'wrong')).status).toBe(401);
    expect((await server!.admin('GET', '/clock', undefined, null)).status).toBe(401);
  });

  it('stores state, then stops with exit code 0 on SIGTERM', async () => {
    const client = await server!.admin('POST', '/clients', { name: 'Keeper', wallet_paise: 20_000 });
    expect(client.status).toBe(201);
    kept.clientKey = client.json.api_key;
    kept.clientId = client.json.client.id;
    const second = await server!.admin('POST', `/clients/${kept.clientId}/keys`);
    kept.revokedKey = second.json.api_key;
    expect((await server!.admin('DELETE', `/keys/${second.json.key_id}`)).status).toBe(200);

    const up = await upload(server!, kept.clientKey, { bytes: 'kept across restarts', filename: 'kept.txt' });
    expect(up.status).toBe(201);
    kept.fileId = up.json.data.id;
    kept.fileUrl = up.json.data.url;
    const topUp = await server!.admin('POST', `/clients/${kept.clientId}/wallet`, { amount_paise: 1234 });
    kept.balance = topUp.json.balance_paise;
    expect(kept.balance).toBe(21_234);

    // A day's measure, so a usage snapshot exists to be kept.
    const clock = await server!.admin('GET', '/clock');
    const crossed = await server!.admin('POST', '/clock/advance', {
      seconds: secondsToNextIstMidnight(clock.json.now),
    });
    kept.clockNow = crossed.json.now;
    const usage = await server!.api('GET', '/usage?days=5', kept.clientKey);
    expect(usage.json.meta.count).toBe(1);
    kept.usage = usage.json.data;

    const entry = await server!.kb('POST', '', demo.bot_token, { title: 'Hours', description: '9 to 5' });
    expect(entry.json.ok).toBe(true);
    kept.entryId = entry.json.entry.id;

    receiver!.respond = 500;
    const raised = await server!.admin('POST', `/bots/${demo.bot_id}/events`, {
      event: 'HANDOFF-REQUESTED',
      lead: { name: 'Asha', email: 'asha@example.test', phone: '+91 98', note: 'call me' },
    });
    expect(raised.status).toBe(202);
    kept.deliveryId = raised.json.delivery_id;
    kept.conversationId = raised.json.conversation_id;
    await waitFor(async () => (receiver!.requests.length >= 1 ? true : undefined));
    const pending = await waitFor(async () => {
      const r = await server!.admin('GET', `/deliveries?bot_id=${demo.bot_id}`);
      const d = r.json.deliveries.find((x: { id: number }) => x.id === kept.deliveryId);
      return d?.attempts.length === 1 ? d : undefined;
    });
    expect(pending.state).toBe('PENDING');

    expect(await server!.stop('SIGTERM')).toBe(0);
    expect(server!.stillServing).toBe(false);
  });

  it('restarts on the same folder with no demo and everything kept', async () => {
    server = await startServer([], dataDir);
    expect(server.ready.demo).toBeUndefined();
    expect(sortedKeys(server.ready)).toEqual(['admin_token', 'base_url', 'cdn_url', 'event']);
    expect(server.ready.admin_token).not.toBe('conformance-admin-T');

    const me = await server.api('GET', '/me', kept.clientKey);
    expect(me.status).toBe(200);
    expect(me.json.data.client.name).toBe('Keeper');
    expect(me.json.data.wallet.balance_paise).toBe(kept.balance);
    expect(me.json.data.usage.files_count).toBe(1);
    expect((await server.api('GET', '/me', demo.api_key)).status).toBe(200);
    const revoked = await server.api('GET', '/me', kept.revokedKey);
    expect(revoked.status).toBe(401);
    expect(revoked.json.code).toBe('UNAUTHENTICATED');

    // Retry times run on the server clock: a restart must not move it back, or kept deliveries drift.
    const clock = await server.admin('GET', '/clock');
    expect(Date.parse(clock.json.now)).toBeGreaterThanOrEqual(Date.parse(kept.clockNow));
    const usage = await server.api('GET', '/usage?days=5', kept.clientKey);
    expect(usage.json.data).toEqual(kept.usage);

    const file = await server.api('GET', `/files/${kept.fileId}`, kept.clientKey);
    expect(file.status).toBe(200);
    // The port may differ after a restart; the stored path must still serve the bytes.
    const path = new URL(kept.fileUrl).pathname;
    const cdn = await fetch(`${server.ready.cdn_url}${path}`);
    expect(cdn.status).toBe(200);
    expect(await cdn.text()).toBe('kept across restarts');

    const entries = await server.kb('GET', '', demo.bot_token);
    expect(entries.json.entries.map((e: { id: number }) => e.id)).toEqual([kept.entryId]);

    const list = await server.admin('GET', `/deliveries?bot_id=${demo.bot_id}`);
    const delivery = list.json.deliveries.find((x: { id: number }) => x.id === kept.deliveryId);
    expect(delivery.state).toBe('PENDING');
    expect(delivery.attempts).toHaveLength(1);
  });

  it('keeps the pending retry: the clock delivers it with the same body, then SIGINT stops with 0', async () => {
    receiver!.respond = 200;
    const advanced = await server!.admin('POST', '/clock/advance', { seconds: 61 });
    expect(advanced.status).toBe(200);
    const list = await server!.admin('GET', `/deliveries?bot_id=${demo.bot_id}`);
    const delivery = list.json.deliveries.find((x: { id: number }) => x.id === kept.deliveryId);
    expect(delivery.state).toBe('DELIVERED');
    expect(delivery.attempts).toHaveLength(2);
    const bodies = receiver!.requests
      .filter((r) => JSON.parse(r.body.toString()).conversation.id === kept.conversationId)
      .map((r) => r.body.toString('hex'));
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toBe(bodies[0]);

    expect(await server!.stop('SIGINT')).toBe(0);
    expect(server!.stillServing).toBe(false);
    server = await startServer([], dataDir);
    const again = await server.admin('GET', `/deliveries?bot_id=${demo.bot_id}`);
    const after = again.json.deliveries.find((x: { id: number }) => x.id === kept.deliveryId);
    expect(after.state).toBe('DELIVERED');
    expect(await server.stop('SIGINT')).toBe(0);
    expect(server.stillServing).toBe(false);
    server = undefined;
  });
});
