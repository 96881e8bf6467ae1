import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KbEntryReplySchema, KbFailureSchema, KbListReplySchema } from '../../../src-shared/api/knowledge';
import { newBot, startServer, type TestServer } from './helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s?.stop();
});

const UPDATED_AT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describe('knowledge entries: the happy path', () => {
  it('creates, lists, updates (PUT and PATCH), and deletes, with the documented fields', async () => {
    const bot = await newBot(s);
    const clock = await s.admin('GET', '/clock');
    const a = await s.kb(bot.token, 'POST', '', { title: 'Opening hours', description: '9 to 5' });
    expect(a.status).toBe(201);
    const entry = KbEntryReplySchema.parse(a.json).entry;
    expect(entry).toEqual({
      id: expect.any(Number),
      title: 'Opening hours',
      description: '9 to 5',
      source: 'API',
      sort_order: 1,
      updated_at: expect.stringMatching(UPDATED_AT),
    });
    expect(Object.keys(a.json.entry).sort()).toEqual([
      'description',
      'id',
      'sort_order',
      'source',
      'title',
      'updated_at',
    ]);
    // IST, like the admin clock's `ist` (same minute, or the next one if the minute turned).
    expect(entry.updated_at.slice(0, 16) >= clock.json.ist).toBe(true);

    const b = await s.kb(bot.token, 'POST', '', { title: 'Refunds' });
    expect(b.status).toBe(201);
    expect(b.json.entry).toMatchObject({ description: '', sort_order: 2 });

    const list = await s.kb(bot.token, 'GET', '');
    expect(list.status).toBe(200);
    expect(KbListReplySchema.parse(list.json).entries.map((e) => e.title)).toEqual([
      'Opening hours',
      'Refunds',
    ]);

    await s.admin('POST', '/clock/advance', { seconds: 3600 });
    const put = await s.kb(bot.token, 'PUT', `/${entry.id}`, { description: '10 to 6' });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({
      ok: true,
      entry: { ...entry, description: '10 to 6', updated_at: expect.stringMatching(UPDATED_AT) },
    });
    expect(put.json.entry.updated_at > entry.updated_at).toBe(true);

    const patch = await s.kb(bot.token, 'PATCH', `/${entry.id}`, { title: 'Hours' });
    expect(patch.status).toBe(200);
    expect(patch.json.entry).toMatchObject({ title: 'Hours', description: '10 to 6', sort_order: 1 });

    const del = await s.kb(bot.token, 'DELETE', `/${entry.id}`);
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ ok: true });
    const after = await s.kb(bot.token, 'GET', '');
    expect(after.json.entries.map((e: { id: number }) => e.id)).toEqual([b.json.entry.id]);
    expect((await s.kb(bot.token, 'DELETE', `/${entry.id}`)).status).toBe(404);
  });

  it('keeps each bot to its own entries', async () => {
    const one = await newBot(s);
    const two = await newBot(s, undefined, one.clientId);
    const mine = await s.kb(one.token, 'POST', '', { title: 'Mine', description: 'x' });
    await s.kb(two.token, 'POST', '', { title: 'Theirs', description: 'y' });
    expect((await s.kb(two.token, 'GET', '')).json.entries.map((e: { title: string }) => e.title)).toEqual([
      'Theirs',
    ]);
    const id = mine.json.entry.id;
    for (const [method, body] of [
      ['PUT', { description: 'stolen' }],
      ['PATCH', { description: 'stolen' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await s.kb(two.token, method, `/${id}`, body);
      expect(res.status, method).toBe(404);
      expect(KbFailureSchema.parse(res.json).error).toMatch(String(id));
    }
    expect((await s.kb(one.token, 'GET', '')).json.entries).toEqual([mine.json.entry]);
  });
});

describe('knowledge entries: the error table', () => {
  it('401 for a missing or wrong token, on every endpoint', async () => {
    const bot = await newBot(s);
    const id = (await s.kb(bot.token, 'POST', '', { title: 't', description: 'd' })).json.entry.id;
    const calls = [
      ['GET', '', undefined],
      ['POST', '', { title: 'x', description: 'y' }],
      ['PUT', `/${id}`, { description: 'z' }],
      ['PATCH', `/${id}`, { description: 'z' }],
      ['DELETE', `/${id}`, undefined],
    ] as const;
    for (const [method, path, body] of calls) {
      for (const token of [null, '', 'kbt_wrong', `${bot.token}x`]) {
        const res = await s.kb(token, method, path, body);
        expect(res.status, `${method} ${token}`).toBe(401);
        expect(res.json.ok).toBe(false);
        expect(res.json.error).toMatch(/X-Bot-Token/);
      }
    }
    // Nothing changed under the refused calls.
    expect((await s.kb(bot.token, 'GET', '')).json.entries).toMatchObject([{ id, description: 'd' }]);
  });

  it('401 comes before the body is looked at', async () => {
    const res = await s.kb('nope', 'POST', '', '{not json');
    expect(res.status).toBe(401);
  });

  it('404 for an id that is not the bot’s, or not an id at all', async () => {
    const bot = await newBot(s);
    for (const path of ['/999999', '/0', '/-1', '/abc', '/1.5', '/99999999999999999999']) {
      for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
        const res = await s.kb(
          bot.token,
          method,
          path,
          method === 'DELETE' ? undefined : { description: 'x' },
        );
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(KbFailureSchema.safeParse(res.json).success).toBe(true);
      }
    }
    expect((await s.kb(bot.token, 'PUT', '/', { description: 'x' })).status).toBe(404);
  });

  it('422 for bad fields, each message naming the field', async () => {
    const bot = await newBot(s);
    const cases: [unknown, RegExp][] = [
      [{ description: 'no title' }, /"title" is required/],
      [{ title: '', description: 'd' }, /"title" must not be empty/],
      [{ title: '   ', description: 'd' }, /"title" must not be empty/],
      [{ title: 'x'.repeat(161), description: 'd' }, /"title" has 161 characters; the limit is 160/],
      [{ title: 't', description: 'x'.repeat(2001) }, /"description" has 2001 characters; the limit is 2000/],
      [{ title: 5, description: 'd' }, /"title" must be a string, got a number/],
      [{ title: 't', description: null }, /"description" must be a string, got null/],
      [{ title: 't', description: 'd', colour: 'red' }, /Unknown field "colour"/],
      [{ title: 't', description: 'd', source: 'UI' }, /Unknown field "source"/],
      [['t', 'd'], /JSON object/],
      ['{"title": "t",', /not valid JSON/],
      ['"just a string"', /JSON object/],
    ];
    for (const [body, message] of cases) {
      const res = await s.kb(bot.token, 'POST', '', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.json).toEqual({ ok: false, error: expect.stringMatching(message) });
    }
    expect((await s.kb(bot.token, 'GET', '')).json.entries).toEqual([]);

    // The limits themselves are allowed; astral characters count as one each.
    const edge = await s.kb(bot.token, 'POST', '', {
      title: '😀'.repeat(160),
      description: 'x'.repeat(2000),
    });
    expect(edge.status).toBe(201);
    const id = edge.json.entry.id;
    const updates: [unknown, RegExp][] = [
      [{}, /Nothing to change/],
      [{ title: 'x'.repeat(161) }, /"title" has 161/],
      [{ description: 7 }, /"description" must be a string/],
      [{ sort_order: 3 }, /Unknown field "sort_order"/],
      [{ id: 1, description: 'd' }, /Unknown field "id"/],
    ];
    for (const [body, message] of updates) {
      const res = await s.kb(bot.token, 'PATCH', `/${id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.json.error).toMatch(message);
    }
    expect((await s.kb(bot.token, 'GET', '')).json.entries).toEqual([edge.json.entry]);
  });

  it('422 for the 21st entry; a free place can be used again', async () => {
    const bot = await newBot(s);
    const ids: number[] = [];
    for (let i = 1; i <= 20; i++) {
      const res = await s.kb(bot.token, 'POST', '', { title: `Entry ${i}`, description: '' });
      expect(res.status).toBe(201);
      expect(res.json.entry.sort_order).toBe(i);
      ids.push(res.json.entry.id);
    }
    const over = await s.kb(bot.token, 'POST', '', { title: 'Entry 21', description: '' });
    expect(over.status).toBe(422);
    expect(over.json).toEqual({ ok: false, error: expect.stringMatching(/at most 20 entries/) });
    expect((await s.kb(bot.token, 'GET', '')).json.entries).toHaveLength(20);
    // Another bot of the same client has its own 20.
    const other = await newBot(s, undefined, bot.clientId);
    expect((await s.kb(other.token, 'POST', '', { title: 'x', description: '' })).status).toBe(201);

    expect((await s.kb(bot.token, 'DELETE', `/${ids[4]}`)).status).toBe(200);
    const again = await s.kb(bot.token, 'POST', '', { title: 'Entry 21', description: '' });
    expect(again.status).toBe(201);
    expect(again.json.entry.sort_order).toBe(21);
  });
});

describe('knowledge entries: the rate limit', () => {
  it('429 after 60 requests a minute per client, other clients unaffected, free again a minute later', async () => {
    const limited = await startServer({ kbRatePerMinute: 60 });
    try {
      const a = await newBot(limited);
      const b = await newBot(limited, undefined, a.clientId);
      const other = await newBot(limited);
      // Refused tokens do not spend the budget.
      for (let i = 0; i < 5; i++) expect((await limited.kb('wrong', 'GET', '')).status).toBe(401);
      for (let i = 0; i < 60; i++) {
        const res = await limited.kb(i % 2 ? a.token : b.token, 'GET', '');
        expect(res.status, `request ${i + 1}`).toBe(200);
      }
      for (const token of [a.token, b.token]) {
        const res = await limited.kb(token, 'POST', '', { title: 't', description: 'd' });
        expect(res.status).toBe(429);
        expect(res.json).toEqual({ ok: false, error: expect.stringMatching(/Rate limit/) });
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      expect((await limited.kb(other.token, 'GET', '')).status).toBe(200);
      await limited.admin('POST', '/clock/advance', { seconds: 61 });
      const later = await limited.kb(a.token, 'GET', '');
      expect(later.status).toBe(200);
      // The refused creates stored nothing.
      expect(later.json.entries).toEqual([]);
    } finally {
      await limited.stop();
    }
  });

  it('0 turns the limit off', async () => {
    const open = await startServer({ kbRatePerMinute: 0 });
    try {
      const bot = await newBot(open);
      for (let i = 0; i < 70; i++) expect((await open.kb(bot.token, 'GET', '')).status).toBe(200);
    } finally {
      await open.stop();
    }
  });
});
