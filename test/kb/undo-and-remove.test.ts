import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botTokenAccount } from '../../src-main/core/kb/bots';
import { signingSecretAccount } from '../../src-main/core/leads/signing-keys';
import {
  api,
  appWithBot,
  byTitle,
  kbServerFixture,
  makeBot,
  must,
  openApp,
  startServer,
  type TestApp,
} from './helpers';

type Remote = { id: number; title: string; description: string };

describe('deleting an entry can be undone until it is sent', () => {
  const w = kbServerFixture('kb-undo-');
  let token: string;
  let app: TestApp;
  let botId: number;
  const remote = async (): Promise<Remote[]> => (await api(w.server.baseUrl, token, 'GET')).json.entries;

  beforeAll(async () => {
    // An undo window far longer than the test: nothing here waits for it to pass.
    ({ app, token, botId } = await appWithBot(w, { name: 'Shop bot', undoMs: 10 * 60_000 }));
    must(app.kb.create(botId, { title: 'Hours', description: '9 to 6' }));
    must(app.kb.create(botId, { title: 'Returns', description: '30 days' }));
    await app.kb.syncNow(botId);
  });
  afterAll(() => app.close());

  it('a delete waits in the outbox for its window; undo brings the entry back and nothing is sent', async () => {
    const hours = byTitle(app, botId, 'Hours')!;
    const deleted = must(app.kb.remove(hours.id));
    expect(deleted).toMatchObject({ deleted: true, state: 'pending', pendingOp: 'delete' });
    expect(deleted.undoUntil).toBeGreaterThan(Date.now());
    await app.kb.syncNow(botId);
    expect((await remote()).map((e) => e.title)).toEqual(['Hours', 'Returns']);

    const back = must(app.kb.restore(hours.id));
    expect(back).toMatchObject({ deleted: false, state: 'synced', pendingOp: null, undoUntil: null });
    expect(app.kb.outbox(botId)).toEqual([]);
    await app.kb.syncNow(botId);
    expect((await remote()).map((e) => e.title)).toEqual(['Hours', 'Returns']);
  });

  it('undo keeps an unsent edit (sent as an update) and a never-sent entry (sent as a create)', async () => {
    const returns = byTitle(app, botId, 'Returns')!;
    must(app.kb.edit(returns.id, { title: 'Returns', description: '45 days' }));
    must(app.kb.remove(returns.id));
    expect(must(app.kb.restore(returns.id))).toMatchObject({ pendingOp: 'update', deleted: false });

    const fresh = must(app.kb.create(botId, { title: 'Payment', description: 'UPI' }));
    must(app.kb.remove(fresh.id));
    // A never-sent entry does not count against the 20 while deleted, and comes back as a create.
    expect(must(app.kb.restore(fresh.id))).toMatchObject({ pendingOp: 'create', deleted: false });

    await app.kb.syncNow(botId);
    expect((await remote()).map((e) => [e.title, e.description])).toEqual([
      ['Hours', '9 to 6'],
      ['Returns', '45 days'],
      ['Payment', 'UPI'],
    ]);
  });

  it('a delete already sent cannot be undone; the answer says what to do', async () => {
    const quick = openApp(join(w.dir, 'app.sqlite'), w.keychain, { undoMs: 0 });
    const payment = byTitle(quick, botId, 'Payment')!;
    must(quick.kb.remove(payment.id));
    await quick.kb.syncNow(botId);
    expect((await remote()).map((e) => e.title)).toEqual(['Hours', 'Returns']);
    const late = quick.kb.restore(payment.id);
    expect(!late.ok && late.error.code).toBe('KB-UNDO-TOO-LATE');
    expect(!late.ok && late.error.message).toMatch(/add the entry again/);
    await quick.close();
  });

  it('a never-sent entry deleted offline is gone once its window ends, without the network', async () => {
    const offline = openApp(join(w.dir, 'app.sqlite'), w.keychain, { undoMs: 0 });
    const port = Number(new URL(w.server.baseUrl).port);
    await w.server.close();
    const draft = must(offline.kb.create(botId, { title: 'Draft', description: '' }));
    must(offline.kb.remove(draft.id));
    await offline.kb.syncNow(botId);
    expect(must(offline.kb.snapshot(botId)).bot.sync.state).toBe('offline');
    expect(byTitle(offline, botId, 'Draft')).toBeUndefined();
    expect(offline.kb.outbox(botId)).toEqual([]);
    await offline.close();
    w.server = await startServer(join(w.dir, 'server'), port);
  });
});

describe('removing a bot', () => {
  const w = kbServerFixture('kb-remove-bot-');

  it('says how many edits are unsent, then removes its entries, outbox, token and signing secret', async () => {
    const app = openApp(join(w.dir, 'app.sqlite'), w.keychain);
    const { token, signing_secret } = await makeBot(w.server);
    const botId = must(
      app.kb.addBot({ name: 'Old bot', baseUrl: w.server.baseUrl, token, signingSecret: signing_secret }),
    ).id;
    must(app.kb.create(botId, { title: 'Kept on the server', description: '' }));
    // The loop is not started here: what is edited now stays in the outbox, unsent.
    await app.kb.syncNow(botId);
    must(app.kb.create(botId, { title: 'A', description: '' }));
    must(app.kb.create(botId, { title: 'B', description: '' }));
    must(
      app.kb.edit(byTitle(app, botId, 'Kept on the server')!.id, {
        title: 'Kept on the server',
        description: 'x',
      }),
    );
    expect(must(app.kb.snapshot(botId)).bot.counts.unsent).toBe(3);

    must(app.kb.removeBot(botId));
    const left = (table: string) =>
      (
        app.db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE bot_local_id = ?`).get(botId) as {
          n: number;
        }
      ).n;
    expect([left('kb_entries'), left('kb_outbox')]).toEqual([0, 0]);
    expect(app.kb.bots()).toEqual([]);
    expect(w.keychain.get(botTokenAccount(botId))).toBeNull();
    expect(w.keychain.get(signingSecretAccount(botId))).toBeNull();
    const again = app.kb.removeBot(botId);
    expect(!again.ok && again.error.code).toBe('KB-NO-BOT');

    // The server's copy is not touched.
    expect((await api(w.server.baseUrl, token, 'GET')).json.entries.map((e: Remote) => e.title)).toEqual([
      'Kept on the server',
    ]);
    await app.close();
  });

  it('rename, new address and new token: the token goes to the w.keychain only and sync follows it', async () => {
    const app = openApp(join(w.dir, 'app2.sqlite'), w.keychain);
    const first = await makeBot(w.server);
    const botId = must(app.kb.addBot({ name: 'Bot', baseUrl: 'http://127.0.0.1:9', token: 'kbt_wrong' })).id;
    await app.kb.syncNow(botId);
    expect(must(app.kb.snapshot(botId)).bot.sync.state).toBe('offline');

    const moved = must(
      app.kb.updateBot({ botId, name: 'Shop bot', baseUrl: `${w.server.baseUrl}/`, token: first.token }),
    );
    expect(moved).toMatchObject({ name: 'Shop bot', baseUrl: w.server.baseUrl, hasToken: true });
    expect(w.keychain.get(botTokenAccount(botId))).toBe(first.token);
    const row = JSON.stringify(app.db.prepare('SELECT * FROM kb_bots').all());
    expect(row).not.toContain(first.token);
    await app.kb.syncNow(botId);
    expect(must(app.kb.snapshot(botId)).bot.sync).toMatchObject({ state: 'idle', error: null });

    const bad = app.kb.updateBot({ botId, baseUrl: 'ftp://example.com' });
    expect(!bad.ok && bad.error.code).toBe('KB-BASE-URL-INVALID');
    await app.close();
  });
});
