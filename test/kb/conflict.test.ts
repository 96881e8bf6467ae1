import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, appWithBot, byTitle, kbServerFixture, must, type TestApp } from './helpers';

type Remote = { id: number; title: string; description: string };

describe('conflicts between the app and the server', () => {
  const w = kbServerFixture('kb-conflict-');
  let app: TestApp;
  let token: string;
  let botId: number;

  const remote = async (): Promise<Remote[]> => (await api(w.server.baseUrl, token, 'GET')).json.entries;
  const remoteByTitle = async (title: string) => (await remote()).find((e) => e.title === title);

  beforeAll(async () => {
    ({ app, token, botId } = await appWithBot(w));
    for (const title of ['Keep mine', 'Keep theirs', 'Merge', 'Gone there', 'Both delete'])
      must(app.kb.create(botId, { title, description: `${title}: original` }));
    await app.kb.syncNow(botId);
    expect(must(app.kb.snapshot(botId)).entries.every((e) => e.state === 'synced')).toBe(true);
  });
  afterAll(() => app.close());

  /** Another system changes the entry through the API, then the editor changes it in the app. */
  async function changeOnBothSides(title: string, theirs: string, mine: string) {
    const r = await remoteByTitle(title);
    expect((await api(w.server.baseUrl, token, 'PUT', `/${r!.id}`, { description: theirs })).status).toBe(
      200,
    );
    const local = byTitle(app, botId, title)!;
    must(app.kb.edit(local.id, { title, description: mine }));
    await app.kb.syncNow(botId);
    return byTitle(app, botId, title)!;
  }

  it('shows a conflict instead of overwriting, and "keep mine" then puts mine on the server', async () => {
    const e = await changeOnBothSides('Keep mine', 'theirs 1', 'mine 1');
    expect(e.state).toBe('conflict');
    expect(e.description).toBe('mine 1');
    expect(e.theirs).toMatchObject({ description: 'theirs 1', deleted: false });
    expect((await remoteByTitle('Keep mine'))!.description).toBe('theirs 1');

    must(app.kb.resolve(e.id, { keep: 'mine' }));
    await app.kb.syncNow(botId);
    expect((await remoteByTitle('Keep mine'))!.description).toBe('mine 1');
    expect(byTitle(app, botId, 'Keep mine')).toMatchObject({
      state: 'synced',
      description: 'mine 1',
      theirs: null,
    });
  });

  it('"keep theirs" drops the local edit and sends nothing', async () => {
    const e = await changeOnBothSides('Keep theirs', 'theirs 2', 'mine 2');
    expect(e.state).toBe('conflict');
    must(app.kb.resolve(e.id, { keep: 'theirs' }));
    expect(byTitle(app, botId, 'Keep theirs')).toMatchObject({ state: 'synced', description: 'theirs 2' });
    expect(app.kb.outbox(botId)).toEqual([]);
    await app.kb.syncNow(botId);
    expect((await remoteByTitle('Keep theirs'))!.description).toBe('theirs 2');
    expect(byTitle(app, botId, 'Keep theirs')!.state).toBe('synced');
  });

  it('keeps both texts while the conflict is open, and nothing reaches the server', async () => {
    const e = await changeOnBothSides('Merge', 'theirs 3', 'mine 3');
    expect(e).toMatchObject({
      state: 'conflict',
      description: 'mine 3',
      theirs: { description: 'theirs 3' },
    });
    await app.kb.syncNow(botId);
    expect((await remoteByTitle('Merge'))!.description).toBe('theirs 3');
    const edit = app.kb.edit(e.id, { title: 'Merge', description: 'sneaky' });
    expect(!edit.ok && edit.error.code).toBe('KB-IN-CONFLICT');
  });

  it('refuses an over-long merge with the reason, then takes a valid one', async () => {
    const e = byTitle(app, botId, 'Merge')!;
    const refused = app.kb.resolve(e.id, { merge: { title: 'Merge', description: 'x'.repeat(2001) } });
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error.code).toBe('KB-DESCRIPTION-TOO-LONG');
    expect(byTitle(app, botId, 'Merge')!.state).toBe('conflict');
    must(app.kb.resolve(e.id, { merge: { title: 'Merge', description: 'theirs 3 + mine 3' } }));
    await app.kb.syncNow(botId);
    expect((await remoteByTitle('Merge'))!.description).toBe('theirs 3 + mine 3');
    expect(byTitle(app, botId, 'Merge')!.state).toBe('synced');
  });

  it('an entry deleted on the w.server while edited here is a conflict; "keep mine" creates it again', async () => {
    const r = await remoteByTitle('Gone there');
    expect((await api(w.server.baseUrl, token, 'DELETE', `/${r!.id}`)).status).toBe(200);
    const local = byTitle(app, botId, 'Gone there')!;
    must(app.kb.edit(local.id, { title: 'Gone there', description: 'still needed' }));
    await app.kb.syncNow(botId);
    const e = byTitle(app, botId, 'Gone there')!;
    expect(e.state).toBe('conflict');
    expect(e.theirs?.deleted).toBe(true);
    must(app.kb.resolve(e.id, { keep: 'mine' }));
    await app.kb.syncNow(botId);
    const back = await remoteByTitle('Gone there');
    expect(back?.description).toBe('still needed');
    expect(back?.id).not.toBe(r!.id);
    expect(byTitle(app, botId, 'Gone there')).toMatchObject({ state: 'synced', remoteId: back!.id });
  });

  it('a delete of an entry changed on the w.server is a conflict too; deleted on both sides is not', async () => {
    const merge = byTitle(app, botId, 'Merge')!;
    const r = await remoteByTitle('Merge');
    expect(
      (await api(w.server.baseUrl, token, 'PUT', `/${r!.id}`, { description: 'changed there again' })).status,
    ).toBe(200);
    must(app.kb.remove(merge.id));
    await app.kb.syncNow(botId);
    expect(byTitle(app, botId, 'Merge')).toMatchObject({ state: 'conflict', deleted: true });
    must(app.kb.resolve(merge.id, { keep: 'theirs' }));
    expect(byTitle(app, botId, 'Merge')).toMatchObject({
      state: 'synced',
      description: 'changed there again',
    });

    const both = byTitle(app, botId, 'Both delete')!;
    expect(
      (await api(w.server.baseUrl, token, 'DELETE', `/${(await remoteByTitle('Both delete'))!.id}`)).status,
    ).toBe(200);
    must(app.kb.remove(both.id));
    await app.kb.syncNow(botId);
    expect(byTitle(app, botId, 'Both delete')).toBeUndefined();
    expect(app.kb.outbox(botId)).toEqual([]);
  });
});
