// knowledge-entry-api-and-webhook.md sections 2, 4, 5, 7 and 8, checked from outside: the entry API's
// envelopes, fields, statuses and limits, with bots made through the admin surface (reference-server.md).
// The entry rate limit is off here (`--kb-rate-limit-per-minute 0`); rate-limit.test.ts checks it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  disposeServer,
  IST_SECOND,
  type Reply,
  type RunningServer,
  sortedKeys,
  startServer,
} from './harness';

const ENTRY_KEYS = ['description', 'id', 'sort_order', 'source', 'title', 'updated_at'];
let server: RunningServer;
let botA: { id: number; token: string };
let botB: { id: number; token: string };

function expectRefusal(reply: Reply, status: number) {
  expect(reply.status, reply.text).toBe(status);
  expect(sortedKeys(reply.json)).toEqual(['error', 'ok']);
  expect(reply.json.ok).toBe(false);
  expect(typeof reply.json.error).toBe('string');
  expect(reply.json.error.length).toBeGreaterThan(0);
}

function expectEntry(entry: Record<string, unknown>) {
  expect(sortedKeys(entry)).toEqual(ENTRY_KEYS);
  expect(Number.isInteger(entry.id)).toBe(true);
  expect(typeof entry.title).toBe('string');
  expect(typeof entry.description).toBe('string');
  expect(entry.source).toBe('API');
  expect(Number.isInteger(entry.sort_order)).toBe(true);
  expect(entry.updated_at).toMatch(IST_SECOND);
}

async function newBot(clientId: number, name = 'Bot') {
  const r = await server.admin('POST', '/bots', { client_id: clientId, name, business_name: `${name} Co` });
  expect(r.status, r.text).toBe(201);
  return { id: r.json.bot.id as number, token: r.json.token as string, reply: r };
}

async function create(token: string, title: string, description = 'd') {
  const r = await server.kb('POST', '', token, { title, description });
  expect(r.status, r.text).toBeGreaterThanOrEqual(200);
  expect(r.status).toBeLessThan(300);
  return r;
}

beforeAll(async () => {
  server = await startServer(['--kb-rate-limit-per-minute', '0', '--rate-limit-per-minute', '0']);
  const client = await server.admin('POST', '/clients', { name: 'KB client' });
  botA = await newBot(client.json.client.id, 'Alpha');
  botB = await newBot(client.json.client.id, 'Beta');
});
afterAll(() => disposeServer(server));

describe('admin: bots', () => {
  it('POST /bots answers 201 {bot: {id, name, business_name}, token, signing_secret}', async () => {
    const client = await server.admin('POST', '/clients', { name: 'Bots' });
    const { reply } = await newBot(client.json.client.id, 'Gamma');
    expect(sortedKeys(reply.json)).toEqual(['bot', 'signing_secret', 'token']);
    expect(sortedKeys(reply.json.bot)).toEqual(['business_name', 'id', 'name']);
    expect(reply.json.bot).toMatchObject({ name: 'Gamma', business_name: 'Gamma Co' });
    expect(typeof reply.json.token).toBe('string');
    expect(typeof reply.json.signing_secret).toBe('string');
  });

  it('PUT /bots/{id} answers 200 {bot: {id, name, business_name, webhook_url}}', async () => {
    const r = await server.admin('PUT', `/bots/${botB.id}`, { webhook_url: 'http://127.0.0.1:9/hook' });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      bot: { id: botB.id, name: 'Beta', business_name: 'Beta Co', webhook_url: 'http://127.0.0.1:9/hook' },
    });
  });

  it('refuses bad bot input with a 4xx, never a 500', async () => {
    const bad: [string, string, unknown][] = [
      ['POST', '/bots', { client_id: 999_999, name: 'x', business_name: 'y' }],
      ['POST', '/bots', { client_id: 1 }],
      ['POST', '/bots', 'not json'],
      ['PUT', '/bots/999999', { webhook_url: null }],
      ['PUT', `/bots/${botA.id}`, { webhook_url: 'not a url' }],
    ];
    for (const [method, path, body] of bad) {
      const r = await server.admin(method, path, body);
      expect(r.status, `${method} ${path} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    }
  });
});

describe('knowledge entries', () => {
  let first: Record<string, unknown>;

  it('answers 401 {ok: false, error} without a token or with a wrong one, on every endpoint', async () => {
    for (const token of [null, 'wrong-token', '']) {
      for (const [method, path, body] of [
        ['GET', '', undefined],
        ['POST', '', { title: 't', description: 'd' }],
        ['PUT', '/1', { description: 'd' }],
        ['PATCH', '/1', { description: 'd' }],
        ['DELETE', '/1', undefined],
      ] as const) {
        expectRefusal(await server.kb(method, path, token, body), 401);
      }
    }
  });

  it('GET lists {ok: true, entries: []} for a new bot', async () => {
    const r = await server.kb('GET', '', botA.token);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ ok: true, entries: [] });
  });

  it('POST creates {ok: true, entry} with the documented fields and source API', async () => {
    const r = await create(botA.token, 'Opening hours', 'Mon-Fri 9 to 5, IST');
    expect(sortedKeys(r.json)).toEqual(['entry', 'ok']);
    expect(r.json.ok).toBe(true);
    expectEntry(r.json.entry);
    expect(r.json.entry).toMatchObject({ title: 'Opening hours', description: 'Mon-Fri 9 to 5, IST' });
    first = r.json.entry;

    const list = await server.kb('GET', '', botA.token);
    expect(list.json).toEqual({ ok: true, entries: [first] });
    // Another bot does not see it.
    expect((await server.kb('GET', '', botB.token)).json.entries).toEqual([]);
  });

  it('PUT and PATCH update the fields sent and keep the others', async () => {
    await server.admin('POST', '/clock/advance', { seconds: 120 });
    const put = await server.kb('PUT', `/${first.id}`, botA.token, { description: 'Mon-Sat 10 to 6' });
    expect(put.status).toBeGreaterThanOrEqual(200);
    expect(put.status).toBeLessThan(300);
    expect(sortedKeys(put.json)).toEqual(['entry', 'ok']);
    expectEntry(put.json.entry);
    expect(put.json.entry).toMatchObject({
      id: first.id,
      title: 'Opening hours',
      description: 'Mon-Sat 10 to 6',
      sort_order: first.sort_order,
    });
    expect(put.json.entry.updated_at).not.toBe(first.updated_at);

    const patch = await server.kb('PATCH', `/${first.id}`, botA.token, { description: 'Always open' });
    expect(patch.status).toBeLessThan(300);
    expect(patch.json.entry).toMatchObject({
      id: first.id,
      title: 'Opening hours',
      description: 'Always open',
    });
    const list = await server.kb('GET', '', botA.token);
    expect(list.json.entries).toEqual([patch.json.entry]);
  });

  it('answers 404 for an entry of another bot, one that does not exist, or an id that is not one', async () => {
    for (const method of ['PUT', 'PATCH'] as const) {
      expectRefusal(await server.kb(method, `/${first.id}`, botB.token, { description: 'hijack' }), 404);
    }
    expectRefusal(await server.kb('DELETE', `/${first.id}`, botB.token), 404);
    expectRefusal(await server.kb('PUT', '/987654', botA.token, { description: 'x' }), 404);
    expectRefusal(await server.kb('DELETE', '/987654', botA.token), 404);
    expectRefusal(await server.kb('PUT', '/abc', botA.token, { description: 'x' }), 404);
    // Untouched.
    const list = await server.kb('GET', '', botA.token);
    expect(list.json.entries[0].description).toBe('Always open');
  });

  it('DELETE answers {ok: true}; the entry is gone and further calls on it answer 404', async () => {
    const temp = await create(botA.token, 'Temporary');
    const del = await server.kb('DELETE', `/${temp.json.entry.id}`, botA.token);
    expect(del.status).toBeLessThan(300);
    expect(del.json).toEqual({ ok: true });
    const list = await server.kb('GET', '', botA.token);
    expect(list.json.entries.map((e: { id: number }) => e.id)).toEqual([first.id]);
    expectRefusal(await server.kb('DELETE', `/${temp.json.entry.id}`, botA.token), 404);
    expectRefusal(await server.kb('PATCH', `/${temp.json.entry.id}`, botA.token, { title: 'x' }), 404);
  });

  it('validates lengths: title up to 160, description up to 2,000 characters (422 beyond)', async () => {
    const ok = await create(botB.token, 't'.repeat(160), 'd'.repeat(2000));
    expect(ok.json.entry.title).toHaveLength(160);
    expect(ok.json.entry.description).toHaveLength(2000);
    expectRefusal(await server.kb('POST', '', botB.token, { title: 't'.repeat(161), description: 'd' }), 422);
    expectRefusal(
      await server.kb('POST', '', botB.token, { title: 't', description: 'd'.repeat(2001) }),
      422,
    );
    expectRefusal(await server.kb('POST', '', botB.token, { title: 42, description: 'd' }), 422);
    expectRefusal(await server.kb('POST', '', botB.token, { title: 't', description: ['d'] }), 422);
    const id = ok.json.entry.id;
    expectRefusal(await server.kb('PUT', `/${id}`, botB.token, { description: 'd'.repeat(2001) }), 422);
    expectRefusal(await server.kb('PATCH', `/${id}`, botB.token, { title: 't'.repeat(161) }), 422);
    const list = await server.kb('GET', '', botB.token);
    expect(list.json.entries).toHaveLength(1);
    expect(list.json.entries[0].description).toBe('d'.repeat(2000));
  });

  it('refuses malformed JSON with a 4xx {ok: false, error}, never a 500', async () => {
    const r = await server.kb('POST', '', botB.token, '{"title": ');
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(r.json).toMatchObject({ ok: false });
    expect(typeof r.json.error).toBe('string');
  });

  it('allows 20 entries per bot; the 21st answers 422 and is not stored', async () => {
    const client = await server.admin('POST', '/clients', { name: 'Full' });
    const bot = await newBot(client.json.client.id, 'Full');
    for (let i = 1; i <= 20; i++) await create(bot.token, `Entry ${i}`);
    expectRefusal(await server.kb('POST', '', bot.token, { title: 'Entry 21', description: 'd' }), 422);
    const list = await server.kb('GET', '', bot.token);
    expect(list.json.entries).toHaveLength(20);
    for (const e of list.json.entries) expectEntry(e);
    expect(new Set(list.json.entries.map((e: { id: number }) => e.id)).size).toBe(20);
  });
});
