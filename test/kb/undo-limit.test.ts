import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { api, byTitle, kbServerFixture, makeBot, must, openApp, type TestApp } from './helpers';

type Remote = { title: string };

/**
 * A bot at its 20-entry limit: a create queued behind a delete still in its undo window, and a
 * create the full server refused (found by the 30-minute soak: the create went first and stayed in
 * error for good).
 */
describe('creates at the 20-entry limit, behind deletes', () => {
  const w = kbServerFixture('kb-undo-limit-');

  const titles = async (token: string) =>
    ((await api(w.server.baseUrl, token, 'GET')).json.entries as Remote[]).map((e) => e.title);

  async function fullBot(name: string, undoMs: number, n = 20) {
    const { token } = await makeBot(w.server);
    const app = openApp(join(w.dir, `${name}.sqlite`), w.keychain, { undoMs });
    const botId = must(app.kb.addBot({ name, baseUrl: w.server.baseUrl, token })).id;
    for (let i = 1; i <= n; i++) must(app.kb.create(botId, { title: `Entry ${i}`, description: '' }));
    await app.kb.syncNow(botId);
    expect(await titles(token)).toHaveLength(n);
    return { app, botId, token };
  }

  /** The undo window ends now, as the clock would end it (the test does not wait on the clock). */
  const endWindows = (app: TestApp) => app.db.prepare('UPDATE kb_outbox SET not_before = 0').run();

  it('a create behind a delete in its undo window waits for it, then both go, delete first', async () => {
    const { app, botId, token } = await fullBot('Full bot', 10 * 60_000);
    try {
      must(app.kb.remove(byTitle(app, botId, 'Entry 1')!.id));
      must(app.kb.create(botId, { title: 'Newcomer', description: '' }));
      await app.kb.syncNow(botId);
      // The delete waits out its window, so the w.server is still full: the create waits too.
      expect(await titles(token)).toHaveLength(20);
      expect(byTitle(app, botId, 'Newcomer')?.state).toBe('pending');

      endWindows(app);
      await app.kb.syncNow(botId);
      const after = await titles(token);
      expect(after).toHaveLength(20);
      expect(after).toContain('Newcomer');
      expect(after).not.toContain('Entry 1');
      expect(byTitle(app, botId, 'Newcomer')?.state).toBe('synced');
    } finally {
      await app.close();
    }
  });

  it('with room on the w.server, a create does not wait for a delete in its window', async () => {
    const { app, botId, token } = await fullBot('Roomy bot', 10 * 60_000, 5);
    try {
      must(app.kb.remove(byTitle(app, botId, 'Entry 1')!.id));
      must(app.kb.create(botId, { title: 'Newcomer', description: '' }));
      await app.kb.syncNow(botId);
      expect(await titles(token)).toContain('Newcomer');
      expect(await titles(token)).toContain('Entry 1');
    } finally {
      await app.close();
    }
  });

  it('a create the full w.server refused is sent again once a delete made here goes out', async () => {
    const { app, botId, token } = await fullBot('Crowded bot', 0, 19);
    try {
      // Another system takes the last slot behind the app's back.
      expect(
        (await api(w.server.baseUrl, token, 'POST', '', { title: 'Other', description: '' })).status,
      ).toBe(201);
      must(app.kb.create(botId, { title: 'Late', description: '' }));
      await app.kb.syncNow(botId);
      const refused = byTitle(app, botId, 'Late')!;
      expect(refused.state).toBe('error');
      expect(refused.error?.message).toMatch(/sent again by itself once a delete/);

      must(app.kb.remove(byTitle(app, botId, 'Entry 1')!.id));
      await app.kb.syncNow(botId);
      expect(byTitle(app, botId, 'Late')?.state).toBe('synced');
      const after = await titles(token);
      expect(after).toContain('Late');
      expect(after).not.toContain('Entry 1');
    } finally {
      await app.close();
    }
  });
});
