import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { api, byTitle, kbServerFixture, makeBot, must, openApp, startServer } from './helpers';

describe('knowledge entries offline first', () => {
  const w = kbServerFixture('kb-offline-');

  it('edits made with the w.server down survive a restart of the app and all land, in order', async () => {
    const dbFile = join(w.dir, 'app.sqlite');
    const bot = await makeBot(w.server);
    let app = openApp(dbFile, w.keychain);
    const botId = must(app.kb.addBot({ name: 'Shop bot', baseUrl: w.server.baseUrl, token: bot.token })).id;

    must(app.kb.create(botId, { title: 'Opening hours', description: 'Mon-Sat 9 to 6' }));
    must(app.kb.create(botId, { title: 'Returns', description: '30 days' }));
    await app.kb.syncNow(botId);
    expect(app.kb.snapshot(botId).ok && must(app.kb.snapshot(botId)).entries.map((e) => e.state)).toEqual([
      'synced',
      'synced',
    ]);

    // The w.server goes away; every edit still succeeds at once, shown as pending.
    const port = Number(new URL(w.server.baseUrl).port);
    await w.server.close();
    const hours = byTitle(app, botId, 'Opening hours')!;
    must(app.kb.edit(hours.id, { title: 'Opening hours', description: 'Mon-Sun 9 to 9' }));
    must(app.kb.create(botId, { title: 'Delivery', description: 'Free over 500 rupees' }));
    must(app.kb.create(botId, { title: 'Payment', description: 'UPI and cards' }));
    must(app.kb.remove(byTitle(app, botId, 'Returns')!.id));
    await app.kb.syncNow(botId);
    const offline = must(app.kb.snapshot(botId));
    expect(offline.bot.sync.state).toBe('offline');
    expect(offline.bot.sync.error?.code).toBe('KB-NETWORK');
    expect(offline.entries.map((e) => [e.title, e.state, e.pendingOp])).toEqual([
      ['Opening hours', 'pending', 'update'],
      ['Returns', 'pending', 'delete'],
      ['Delivery', 'pending', 'create'],
      ['Payment', 'pending', 'create'],
    ]);
    await app.close();

    // The app restarts with its outbox on disk; then the w.server comes back on the same address.
    app = openApp(dbFile, w.keychain);
    expect(app.kb.outbox(botId).map((o) => o.op)).toEqual(['update', 'create', 'create', 'delete']);
    w.server = await startServer(join(w.dir, 'server'), port);
    await app.kb.syncNow(botId);

    const remote = (await api(w.server.baseUrl, bot.token, 'GET')).json.entries as {
      id: number;
      title: string;
      description: string;
      sort_order: number;
    }[];
    expect(remote.map((e) => [e.title, e.description])).toEqual([
      ['Opening hours', 'Mon-Sun 9 to 9'],
      ['Delivery', 'Free over 500 rupees'],
      ['Payment', 'UPI and cards'],
    ]);
    const delivery = remote.find((e) => e.title === 'Delivery')!;
    const payment = remote.find((e) => e.title === 'Payment')!;
    expect(delivery.id).toBeLessThan(payment.id);
    const after = must(app.kb.snapshot(botId));
    expect(after.entries.map((e) => [e.title, e.state, e.remoteId !== null])).toEqual([
      ['Opening hours', 'synced', true],
      ['Delivery', 'synced', true],
      ['Payment', 'synced', true],
    ]);
    expect(after.bot.sync.state).toBe('idle');
    expect(app.kb.outbox(botId)).toEqual([]);
    await app.close();
  });
});
