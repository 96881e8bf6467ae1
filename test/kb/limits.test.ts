import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, appWithBot, byTitle, kbServerFixture, must, type TestApp } from './helpers';

describe('limits checked before sending', () => {
  const w = kbServerFixture('kb-limits-');
  let app: TestApp;
  let token: string;
  let botId: number;

  beforeAll(async () => {
    ({ app, token, botId } = await appWithBot(w));
  });
  afterAll(() => app.close());

  it('refuses titles and descriptions out of bounds with the reason, storing nothing', () => {
    const cases: [string, string, string][] = [
      ['', 'd', 'KB-TITLE-REQUIRED'],
      ['   ', 'd', 'KB-TITLE-REQUIRED'],
      ['t'.repeat(161), 'd', 'KB-TITLE-TOO-LONG'],
      ['ok', 'd'.repeat(2001), 'KB-DESCRIPTION-TOO-LONG'],
    ];
    for (const [title, description, code] of cases) {
      const r = app.kb.create(botId, { title, description });
      expect(r.ok ? 'accepted' : r.error.code).toBe(code);
      if (!r.ok) expect(r.error.message).toMatch(/characters|required/);
    }
    expect(must(app.kb.snapshot(botId)).entries).toEqual([]);
    expect(app.kb.outbox(botId)).toEqual([]);
    // The bounds themselves are allowed, counted in characters (an emoji is one).
    must(app.kb.create(botId, { title: '😀'.repeat(160), description: 'é'.repeat(2000) }));
  });

  it('counts pending creates against the 20-entry limit', () => {
    for (let i = 2; i <= 20; i++) must(app.kb.create(botId, { title: `Entry ${i}`, description: '' }));
    const r = app.kb.create(botId, { title: 'Entry 21', description: '' });
    expect(!r.ok && r.error.code).toBe('KB-TOO-MANY-ENTRIES');
    expect(!r.ok && r.error.message).toMatch(/at most 20/);
    expect(app.kb.outbox(botId)).toHaveLength(20);
  });

  it("shows the server's 422 text when the w.server still refuses", async () => {
    // Free two slots locally and let everything land.
    const snap = must(app.kb.snapshot(botId));
    must(app.kb.remove(snap.entries[18]!.id));
    must(app.kb.remove(snap.entries[19]!.id));
    await app.kb.syncNow(botId);
    expect((await api(w.server.baseUrl, token, 'GET')).json.entries).toHaveLength(18);
    // Another system fills the bot behind the app's back; the app does not know yet.
    for (const t of ['Other 1', 'Other 2'])
      expect(
        (await api(w.server.baseUrl, token, 'POST', '', { title: t, description: '' })).status,
      ).toBeLessThan(300);
    const local = must(app.kb.create(botId, { title: 'One too many', description: '' }));
    expect(local.state).toBe('pending');
    await app.kb.syncNow(botId);
    const e = byTitle(app, botId, 'One too many')!;
    expect(e.state).toBe('error');
    expect(e.error?.code).toBe('KB-REFUSED');
    expect(e.error?.message.length).toBeGreaterThan(0);
    expect((await api(w.server.baseUrl, token, 'GET')).json.entries).toHaveLength(20);
    // The refused create is held, not retried on every round.
    await app.kb.syncNow(botId);
    expect(byTitle(app, botId, 'One too many')!.state).toBe('error');
  });
});
