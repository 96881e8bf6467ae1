import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLeadsStore, type StoredLead } from '../../src-main/core/leads/leads-store';
import { LEADS_MIGRATIONS } from '../../src-main/core/leads/migrations';
import { type RunningReceiver, startLeadReceiver } from '../../src-main/core/leads/receiver';
import { type Db, openDatabase } from '../../src-main/shared-node/sqlite';

const SECRET_A = 'secret-of-bot-a';
const SECRET_B = 'secret-of-bot-b';
const sign = (body: string | Buffer, secret: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

const payload = (conversationId: number, event = 'LEAD-CAPTURED') =>
  JSON.stringify({
    event,
    bot: { id: 7, name: 'Demo bot', business_name: 'Demo business' },
    lead: {
      name: 'Ravi',
      email: 'ravi@example.com',
      phone: '+91 90000 11111',
      note: null,
      asked_for_a_person: false,
    },
    conversation: { id: conversationId, visitor_ref: 'v-9', started_at: '2025-03-04 11:12' },
  });

describe('lead receiver', () => {
  let dir: string;
  let db: Db;
  let receiver: RunningReceiver;
  let seen: StoredLead[];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'leads-recv-'));
    db = openDatabase(join(dir, 'app.sqlite'), LEADS_MIGRATIONS);
    seen = [];
    receiver = await startLeadReceiver({
      store: createLeadsStore(db),
      keys: () => [
        { botId: 1, secret: SECRET_A },
        { botId: 2, secret: SECRET_B },
      ],
      onLead: (l) => seen.push(l),
      maxBodyBytes: 4096,
    });
  });
  afterEach(async () => {
    await receiver.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = async (body: string | Buffer, headers: Record<string, string>, url = receiver.url) => {
    const res = await request(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', ...headers },
    });
    return { status: res.statusCode, json: (await res.body.json()) as Record<string, unknown> };
  };
  const rows = () => db.prepare('SELECT bot_local_id, conversation_id, name FROM leads').all();

  it('stores a signed lead once, attributes it to the bot whose secret signed it, and tells the UI', async () => {
    const body = payload(101);
    const r = await post(body, {
      'x-service-signature': sign(body, SECRET_B),
      'x-service-event': 'LEAD-CAPTURED',
    });
    expect(r).toEqual({ status: 200, json: { ok: true, duplicate: false } });
    expect(rows()).toEqual([{ bot_local_id: 2, conversation_id: 101, name: 'Ravi' }]);
    expect(seen.map((l) => [l.conversationId, l.email, l.botId])).toEqual([[101, 'ravi@example.com', 2]]);
  });

  it('acknowledges a repeated conversation id and stores nothing more', async () => {
    const body = payload(102);
    const first = await post(body, { 'x-service-signature': sign(body, SECRET_A) });
    const again = await post(body, { 'x-service-signature': sign(body, SECRET_A) });
    expect(first.status).toBe(200);
    expect(again).toEqual({ status: 200, json: { ok: true, duplicate: true } });
    expect(rows()).toHaveLength(1);
    expect(seen).toHaveLength(1);
  });

  it('answers 401 and stores nothing for a missing header, a wrong secret, a tampered byte or a re-encoded body', async () => {
    const body = payload(103);
    const good = sign(body, SECRET_A);
    const cases: [string | Buffer, Record<string, string>][] = [
      [body, {}],
      [body, { 'x-service-signature': sign(body, 'not-a-bot-secret') }],
      [body.replace('Ravi', 'Ravj'), { 'x-service-signature': good }],
      [JSON.stringify(JSON.parse(body), null, 1), { 'x-service-signature': good }],
    ];
    for (const [b, h] of cases) {
      const r = await post(b, h);
      expect(r.status).toBe(401);
      expect(String(r.json.error)).toMatch(/X-Service-Signature/);
    }
    expect(rows()).toHaveLength(0);
    expect(seen).toHaveLength(0);
  });

  it('checks the signature before parsing: unsigned garbage is 401, signed garbage is 400', async () => {
    expect((await post('{not json', {})).status).toBe(401);
    const signedGarbage = '{not json';
    const r = await post(signedGarbage, { 'x-service-signature': sign(signedGarbage, SECRET_A) });
    expect(r.status).toBe(400);
    const noId = JSON.stringify({ event: 'LEAD-CAPTURED', conversation: {} });
    const r2 = await post(noId, { 'x-service-signature': sign(noId, SECRET_A) });
    expect(r2.status).toBe(422);
    expect(String(r2.json.error)).toMatch(/conversation\.id/);
    expect(rows()).toHaveLength(0);
  });

  it('answers 422 naming the field when a signed delivery has a field of the wrong shape', async () => {
    // The probe's case: an object where a text is expected used to end in "Cannot convert object to
    // primitive value" and a 400 with no field named.
    const shapes: [string, Record<string, unknown>][] = [
      ['lead.name', { name: { toString: 1 } }],
      ['lead.email', { email: ['a@b'] }],
      ['lead.phone', { phone: 919800011111 }],
      ['lead.asked_for_a_person', { asked_for_a_person: 'yes' }],
    ];
    for (const [field, fields] of shapes) {
      const parsed = JSON.parse(payload(106));
      const body = JSON.stringify({ ...parsed, lead: { ...parsed.lead, ...fields } });
      const r = await post(body, { 'x-service-signature': sign(body, SECRET_A) });
      expect(r.status, field).toBe(422);
      expect(String(r.json.error)).toContain(field);
    }
    const badBot = JSON.stringify({ ...JSON.parse(payload(107)), bot: { id: 'seven' } });
    const r = await post(badBot, { 'x-service-signature': sign(badBot, SECRET_A) });
    expect(r.status).toBe(422);
    expect(String(r.json.error)).toContain('bot.id');
    expect(rows()).toHaveLength(0);
  });

  it('refuses a body over the limit with 413, a wrong path with 404 and a GET with 405', async () => {
    const big = 'x'.repeat(5000);
    expect((await post(big, { 'x-service-signature': sign(big, SECRET_A) })).status).toBe(413);
    const body = payload(104);
    const other = receiver.url.replace(receiver.path, '/elsewhere');
    expect((await post(body, { 'x-service-signature': sign(body, SECRET_A) }, other)).status).toBe(404);
    const get = await request(receiver.url);
    expect(get.statusCode).toBe(405);
    await get.body.dump();
    expect(rows()).toHaveLength(0);
  });

  it('keeps a handoff whose payload lacks optional fields, marked as a handoff', async () => {
    const body = JSON.stringify({
      event: 'HANDOFF-REQUESTED',
      bot: { id: 7 },
      lead: { name: 'Meera', email: 'm@example.com', phone: '1' },
      conversation: { id: 105 },
    });
    const r = await post(body, { 'x-service-signature': sign(body, SECRET_A) });
    expect(r.status).toBe(200);
    expect(seen[0]).toMatchObject({
      event: 'HANDOFF-REQUESTED',
      askedForAPerson: true,
      note: null,
      name: 'Meera',
    });
  });
});
