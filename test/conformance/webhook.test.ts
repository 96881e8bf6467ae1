// knowledge-entry-api-and-webhook.md sections 2 and 6 with reference-server.md's lead events and
// deliveries: the payload field for field, the signature over the exact bytes, the headers, and the
// retry rules on the admin clock. `--webhook-timeout-ms 2000` keeps the timeout case short in real time, and
// long enough that a receiver's 4xx beside a CPU hog is an answer, not a timeout (at 300 ms, CI under
// stress-ng saw a 404 taken as a timeout: PENDING where the spec says REFUSED).
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  disposeServer,
  IST_MINUTE,
  type Receiver,
  type RunningServer,
  sortedKeys,
  startReceiver,
  startServer,
  waitFor,
} from './harness';

let server: RunningServer;
let receiver: Receiver;
let clientId: number;

beforeAll(async () => {
  server = await startServer(['--webhook-timeout-ms', '2000', '--rate-limit-per-minute', '0']);
  receiver = await startReceiver();
  clientId = (await server.admin('POST', '/clients', { name: 'Leads' })).json.client.id;
});
afterAll(async () => {
  await disposeServer(server);
  await receiver?.close();
});

interface Delivery {
  id: number;
  bot_id: number;
  conversation_id: number;
  event: string;
  state: string;
  attempts: { at: string; status: number | null; error: string | null; duration_ms: number }[];
  next_attempt_at: string | null;
}

async function newBot(path: string, name = 'Sales bot') {
  const r = await server.admin('POST', '/bots', {
    client_id: clientId,
    name,
    business_name: 'Sales Pvt Ltd',
    webhook_url: `${receiver.url}${path}`,
  });
  expect(r.status, r.text).toBe(201);
  return { id: r.json.bot.id as number, secret: r.json.signing_secret as string };
}

async function raise(botId: number, event = 'LEAD-CAPTURED', extra: Record<string, unknown> = {}) {
  const r = await server.admin('POST', `/bots/${botId}/events`, {
    event,
    lead: { name: 'Ravi', email: 'ravi@example.test', phone: '+91 90000 00000' },
    ...extra,
  });
  expect(r.status, r.text).toBe(202);
  return r.json as { conversation_id: number; delivery_id: number };
}

async function delivery(botId: number, id: number): Promise<Delivery> {
  const r = await server.admin('GET', `/deliveries?bot_id=${botId}`);
  expect(r.status).toBe(200);
  return r.json.deliveries.find((d: Delivery) => d.id === id);
}

/** Waits (real time) until the delivery has `n` attempts recorded. */
function attempts(botId: number, id: number, n: number): Promise<Delivery> {
  return waitFor(async () => {
    const d = await delivery(botId, id);
    return d && d.attempts.length >= n ? d : undefined;
  }, 15_000);
}

const requestsTo = (path: string) => receiver.requests.filter((r) => r.url === path);

async function advance(seconds: number) {
  const r = await server.admin('POST', '/clock/advance', { seconds });
  expect(r.status).toBe(200);
}

describe('a delivered lead', () => {
  it('POSTs the documented payload, signed over the exact bytes, with the event header', async () => {
    receiver.respond = 200;
    const bot = await newBot('/ok');
    const clock = await server.admin('GET', '/clock');
    const raised = await raise(bot.id, 'LEAD-CAPTURED', {
      lead: { name: 'Ravi', email: 'ravi@example.test', phone: '+91 90000 00000', note: 'Wants a quote' },
      conversation: { visitor_ref: 'visitor-42' },
    });
    expect(sortedKeys(raised)).toEqual(['conversation_id', 'delivery_id']);
    expect(Number.isInteger(raised.conversation_id)).toBe(true);
    expect(Number.isInteger(raised.delivery_id)).toBe(true);

    const d = await attempts(bot.id, raised.delivery_id, 1);
    const [req] = requestsTo('/ok');
    expect(req).toBeDefined();
    expect(req!.method).toBe('POST');
    expect(req!.headers['content-type']).toMatch(/^application\/json/);
    expect(req!.headers['x-service-event']).toBe('LEAD-CAPTURED');
    const expected = `sha256=${createHmac('sha256', bot.secret).update(req!.body).digest('hex')}`;
    expect(req!.headers['x-service-signature']).toBe(expected);

    const payload = JSON.parse(req!.body.toString('utf8'));
    expect(sortedKeys(payload)).toEqual(['bot', 'conversation', 'event', 'lead']);
    expect(payload.event).toBe('LEAD-CAPTURED');
    expect(payload.bot).toEqual({ id: bot.id, name: 'Sales bot', business_name: 'Sales Pvt Ltd' });
    expect(payload.lead).toEqual({
      name: 'Ravi',
      email: 'ravi@example.test',
      phone: '+91 90000 00000',
      note: 'Wants a quote',
      asked_for_a_person: false,
    });
    expect(sortedKeys(payload.conversation)).toEqual(['id', 'started_at', 'visitor_ref']);
    expect(payload.conversation.id).toBe(raised.conversation_id);
    expect(payload.conversation.visitor_ref).toBe('visitor-42');
    expect(payload.conversation.started_at).toMatch(IST_MINUTE);
    const later = await server.admin('GET', '/clock');
    expect([clock.json.ist, later.json.ist]).toContain(payload.conversation.started_at);

    expect(sortedKeys(d)).toEqual([
      'attempts',
      'bot_id',
      'conversation_id',
      'event',
      'id',
      'next_attempt_at',
      'state',
    ]);
    expect(d).toMatchObject({
      id: raised.delivery_id,
      bot_id: bot.id,
      conversation_id: raised.conversation_id,
      event: 'LEAD-CAPTURED',
      state: 'DELIVERED',
    });
    expect(d.attempts).toHaveLength(1);
    expect(sortedKeys(d.attempts[0]!)).toEqual(['at', 'duration_ms', 'error', 'status']);
    expect(d.attempts[0]!.status).toBe(200);
    expect(Number.isInteger(d.attempts[0]!.duration_ms)).toBe(true);
    expect(Number.isNaN(Date.parse(d.attempts[0]!.at))).toBe(false);
  });

  it('HANDOFF-REQUESTED carries its header and the same shape; note is null when not given', async () => {
    receiver.respond = 200;
    const bot = await newBot('/handoff');
    const raised = await raise(bot.id, 'HANDOFF-REQUESTED', {
      lead: { name: 'Meera', email: 'm@example.test', phone: '1', asked_for_a_person: true },
    });
    await attempts(bot.id, raised.delivery_id, 1);
    const [req] = requestsTo('/handoff');
    expect(req!.headers['x-service-event']).toBe('HANDOFF-REQUESTED');
    const payload = JSON.parse(req!.body.toString('utf8'));
    expect(payload.event).toBe('HANDOFF-REQUESTED');
    expect(payload.lead).toEqual({
      name: 'Meera',
      email: 'm@example.test',
      phone: '1',
      note: null,
      asked_for_a_person: true,
    });
    expect(typeof payload.conversation.visitor_ref).toBe('string');
    expect(payload.conversation.id).toBe(raised.conversation_id);
  });

  it('gives every conversation its own id, and GET /deliveries?bot_id=N lists only that bot', async () => {
    receiver.respond = 200;
    const a = await newBot('/a');
    const b = await newBot('/b');
    const one = await raise(a.id);
    const two = await raise(a.id);
    const three = await raise(b.id);
    expect(new Set([one.conversation_id, two.conversation_id, three.conversation_id]).size).toBe(3);
    await attempts(a.id, two.delivery_id, 1);
    const list = await server.admin('GET', `/deliveries?bot_id=${a.id}`);
    expect(sortedKeys(list.json)).toEqual(['deliveries']);
    expect(list.json.deliveries.map((d: Delivery) => d.id).sort()).toEqual(
      [one.delivery_id, two.delivery_id].sort(),
    );
  });

  it('refuses bad events with a 4xx, never a 500', async () => {
    const bot = await newBot('/never');
    const bad: unknown[] = [
      { event: 'LEAD-LOST', lead: { name: 'a', email: 'b', phone: 'c' } },
      { event: 'LEAD-CAPTURED' },
      { event: 'LEAD-CAPTURED', lead: { name: 'a' } },
      { event: 'LEAD-CAPTURED', lead: { name: 'a', email: 'b', phone: 'c', asked_for_a_person: 'yes' } },
      'not json',
    ];
    for (const body of bad) {
      const r = await server.admin('POST', `/bots/${bot.id}/events`, body);
      expect(r.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    }
    const unknown = await server.admin('POST', '/bots/999999/events', {
      event: 'LEAD-CAPTURED',
      lead: { name: 'a', email: 'b', phone: 'c' },
    });
    expect(unknown.status).toBeGreaterThanOrEqual(400);
    expect(unknown.status).toBeLessThan(500);
    expect(requestsTo('/never')).toHaveLength(0);
  });
});

describe('retries on the server clock', () => {
  it('a 5xx is retried 60 s later, then 5 minutes after that, with the same bytes; then FAILED', async () => {
    receiver.respond = 500;
    const bot = await newBot('/fail');
    const raised = await raise(bot.id);
    let d = await attempts(bot.id, raised.delivery_id, 1);
    expect(d.state).toBe('PENDING');
    expect(d.attempts[0]!.status).toBe(500);
    expect(typeof d.next_attempt_at).toBe('string');
    const gap = Date.parse(d.next_attempt_at!) - Date.parse(d.attempts[0]!.at);
    expect(Math.abs(gap - 60_000)).toBeLessThan(2_000);

    await advance(55);
    expect((await delivery(bot.id, raised.delivery_id)).attempts).toHaveLength(1);
    await advance(10);
    d = await delivery(bot.id, raised.delivery_id);
    expect(d.attempts).toHaveLength(2);
    expect(d.state).toBe('PENDING');

    await advance(290);
    expect((await delivery(bot.id, raised.delivery_id)).attempts).toHaveLength(2);
    await advance(15);
    d = await delivery(bot.id, raised.delivery_id);
    expect(d.attempts).toHaveLength(3);
    expect(d.state).toBe('FAILED');
    const second = Date.parse(d.attempts[1]!.at) - Date.parse(d.attempts[0]!.at);
    const third = Date.parse(d.attempts[2]!.at) - Date.parse(d.attempts[1]!.at);
    expect(Math.abs(second - 60_000)).toBeLessThan(6_000);
    expect(Math.abs(third - 300_000)).toBeLessThan(16_000);

    // Three attempts in all: nothing more, whatever the clock does.
    await advance(3_600);
    expect((await delivery(bot.id, raised.delivery_id)).attempts).toHaveLength(3);
    const bodies = requestsTo('/fail').map((r) => r.body.toString('hex'));
    expect(bodies).toHaveLength(3);
    expect(new Set(bodies).size).toBe(1);
    expect(new Set(requestsTo('/fail').map((r) => r.headers['x-service-signature'])).size).toBe(1);
  });

  it('408, 429, 503, a timeout and a refused connection are retried; a later 2xx delivers', async () => {
    const cases: { path: string; respond: number | 'hang'; url?: string }[] = [
      { path: '/r408', respond: 408 },
      { path: '/r429', respond: 429 },
      { path: '/r503', respond: 503 },
      { path: '/hang', respond: 'hang' },
      { path: '/closed', respond: 200, url: 'http://127.0.0.1:9/closed' },
    ];
    const raisedAll: { bot: number; delivery: number; path: string }[] = [];
    for (const c of cases) {
      receiver.respond = c.respond;
      const bot = await newBot(c.path);
      if (c.url) await server.admin('PUT', `/bots/${bot.id}`, { webhook_url: c.url });
      const raised = await raise(bot.id);
      const d = await attempts(bot.id, raised.delivery_id, 1);
      expect(d.state, c.path).toBe('PENDING');
      if (c.respond === 'hang' || c.url) expect(d.attempts[0]!.status, c.path).toBeNull();
      else expect(d.attempts[0]!.status, c.path).toBe(c.respond);
      expect(d.attempts[0]!.error, c.path).not.toBeNull();
      raisedAll.push({ bot: bot.id, delivery: raised.delivery_id, path: c.path });
    }
    // The owner fixes the receiver: the retry is delivered.
    receiver.respond = 204;
    const closed = raisedAll.find((r) => r.path === '/closed')!;
    await server.admin('PUT', `/bots/${closed.bot}`, { webhook_url: `${receiver.url}/closed` });
    await advance(61);
    // Beside a CPU hog a retry can itself time out (CI saw /r408 still PENDING after its second attempt):
    // that is a retry too, so the clock moves on until each is delivered, at most three more times.
    for (let round = 0; round < 3; round++) {
      const states = await Promise.all(raisedAll.map((r) => delivery(r.bot, r.delivery)));
      if (states.every((d) => d.state === 'DELIVERED')) break;
      await advance(301);
    }
    for (const r of raisedAll) {
      const d = await delivery(r.bot, r.delivery);
      expect({ path: r.path, state: d.state }).toEqual({ path: r.path, state: 'DELIVERED' });
      expect(d.attempts.length, r.path).toBeGreaterThanOrEqual(2);
      const last = d.attempts.at(-1)!;
      expect(last.status, r.path).toBe(204);
      expect(d.next_attempt_at).toBeNull();
    }
  });

  it('a bot with no webhook URL yet: the delivery is not FAILED before its retries are used up', async () => {
    const r = await server.admin('POST', '/bots', { client_id: clientId, name: 'Later', business_name: 'L' });
    const raised = await raise(r.json.bot.id);
    const d = await attempts(r.json.bot.id, raised.delivery_id, 1);
    // FAILED means "retries used up" (reference-server.md); none is used after one attempt.
    expect(d.state).toBe('PENDING');
    receiver.respond = 200;
    await server.admin('PUT', `/bots/${r.json.bot.id}`, { webhook_url: `${receiver.url}/later` });
    await advance(61);
    expect((await delivery(r.json.bot.id, raised.delivery_id)).state).toBe('DELIVERED');
    expect(requestsTo('/later')).toHaveLength(1);
  });

  it('any other 4xx is a refusal: REFUSED after one attempt, never retried', async () => {
    for (const status of [400, 401, 404, 410, 422]) {
      receiver.respond = status;
      const bot = await newBot(`/refuse${status}`);
      const raised = await raise(bot.id);
      const d = await attempts(bot.id, raised.delivery_id, 1);
      expect({ status, state: d.state }).toEqual({ status, state: 'REFUSED' });
      expect(d.attempts[0]!.status).toBe(status);
    }
    receiver.respond = 200;
    await advance(400);
    for (const status of [400, 401, 404, 410, 422]) {
      expect(requestsTo(`/refuse${status}`), String(status)).toHaveLength(1);
    }
  });
});
