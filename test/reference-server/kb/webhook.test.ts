import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { LeadWebhookPayloadSchema } from '../../../src-shared/api/knowledge';
import { lead, newBot, startReceiver, startServer, type TestServer, waitForDelivery } from './helpers';

/** The receiver's side of section 6, written independently of the server's signing code. */
function verify(secret: string, raw: Buffer, header: string | string[] | undefined): boolean {
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(raw).digest('hex'), 'utf8');
  const given = Buffer.from(header.slice('sha256='.length), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(
  answer: Parameters<typeof startReceiver>[0],
  options: { webhookTimeoutMs?: number } = {},
) {
  const receiver = await startReceiver(answer);
  cleanups.push(receiver.close);
  const s = await startServer(options);
  cleanups.push(() => s.stop());
  const bot = await newBot(s, receiver.url);
  return { s, receiver, bot };
}

async function raise(s: TestServer, botId: number, body: unknown = { event: 'LEAD-CAPTURED', lead }) {
  const res = await s.admin('POST', `/bots/${botId}/events`, body);
  expect(res.status, JSON.stringify(res.json)).toBe(202);
  return res.json as { conversation_id: number; delivery_id: number };
}

const advance = async (s: TestServer, seconds: number) => {
  const res = await s.admin('POST', '/clock/advance', { seconds });
  expect(res.status).toBe(200);
};

describe('lead webhook: payload and signature', () => {
  it('POSTs the documented payload, signed over the exact bytes, and records it DELIVERED', async () => {
    const { s, receiver, bot } = await setup(() => 200);
    const clock = await s.admin('GET', '/clock');
    const raised = await raise(s, bot.id, {
      event: 'LEAD-CAPTURED',
      lead: { ...lead, note: 'Wants a quote — ₹ 5,000 😀' },
      conversation: { visitor_ref: 'v-42' },
    });
    await receiver.waitFor(1);
    const got = receiver.received[0]!;
    expect(got.headers['x-service-event']).toBe('LEAD-CAPTURED');
    expect(got.headers['content-type']).toBe('application/json');
    expect(verify(bot.secret, got.raw, got.headers['x-service-signature'])).toBe(true);
    // The verifier can fail: another secret or one changed byte does not pass.
    expect(verify(`${bot.secret}x`, got.raw, got.headers['x-service-signature'])).toBe(false);
    const tampered = Buffer.from(got.raw);
    tampered[0] = tampered[0]! ^ 1;
    expect(verify(bot.secret, tampered, got.headers['x-service-signature'])).toBe(false);

    const payload = LeadWebhookPayloadSchema.parse(JSON.parse(got.raw.toString('utf8')));
    expect(payload).toEqual({
      event: 'LEAD-CAPTURED',
      bot: { id: bot.id, name: 'Bot', business_name: 'Biz' },
      lead: { ...lead, note: 'Wants a quote — ₹ 5,000 😀', asked_for_a_person: false },
      conversation: { id: raised.conversation_id, visitor_ref: 'v-42', started_at: expect.any(String) },
    });
    expect(payload.conversation.started_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect(payload.conversation.started_at >= clock.json.ist).toBe(true);

    const d = await waitForDelivery(s, bot.id, raised.delivery_id, (x) => x.state !== 'PENDING');
    expect(d).toEqual({
      id: raised.delivery_id,
      bot_id: bot.id,
      conversation_id: raised.conversation_id,
      event: 'LEAD-CAPTURED',
      state: 'DELIVERED',
      attempts: [{ at: expect.any(String), status: 200, error: null, duration_ms: expect.any(Number) }],
      next_attempt_at: null,
    });
  });

  it('HANDOFF-REQUESTED: same shape, asked_for_a_person true by default, a new conversation id per event', async () => {
    const { s, receiver, bot } = await setup(() => 204);
    const first = await raise(s, bot.id, { event: 'HANDOFF-REQUESTED', lead });
    const second = await raise(s, bot.id, {
      event: 'LEAD-CAPTURED',
      lead: { ...lead, asked_for_a_person: true },
    });
    expect(second.conversation_id).not.toBe(first.conversation_id);
    await receiver.waitFor(2);
    const bodies = receiver.received.map((r) => LeadWebhookPayloadSchema.parse(JSON.parse(r.raw.toString())));
    const handoff = bodies.find((b) => b.event === 'HANDOFF-REQUESTED')!;
    expect(handoff.lead).toEqual({ ...lead, note: null, asked_for_a_person: true });
    expect(handoff.conversation.visitor_ref).toMatch(/\S/);
    const handoffRequest = receiver.received.find(
      (r) => r.headers['x-service-event'] === 'HANDOFF-REQUESTED',
    )!;
    expect(verify(bot.secret, handoffRequest.raw, handoffRequest.headers['x-service-signature'])).toBe(true);
    // 204 is a 2xx: success.
    await waitForDelivery(s, bot.id, first.delivery_id, (x) => x.state === 'DELIVERED');
  });
});

describe('lead webhook: retries on the server clock', () => {
  it('500: attempts at +60 s and +5 min, then FAILED; exactly three, byte-identical', async () => {
    const { s, receiver, bot } = await setup(() => 500);
    const raised = await raise(s, bot.id);
    let d = await waitForDelivery(s, bot.id, raised.delivery_id, (x) => x.attempts.length === 1);
    expect(d.state).toBe('PENDING');
    expect(d.attempts[0]).toMatchObject({ status: 500, error: expect.stringMatching(/500/) });
    const first = Date.parse(d.attempts[0].at);
    expect(Date.parse(d.next_attempt_at) - first).toBe(60_000);

    await advance(s, 58);
    expect(receiver.received).toHaveLength(1);
    await advance(s, 2);
    // The advance replies only after the due retry ran.
    expect(receiver.received).toHaveLength(2);
    d = (await s.admin('GET', `/deliveries?bot_id=${bot.id}`)).json.deliveries[0];
    expect(d.state).toBe('PENDING');
    expect(d.attempts).toHaveLength(2);
    const second = Date.parse(d.attempts[1].at);
    expect(second - first).toBeGreaterThanOrEqual(60_000);
    expect(second - first).toBeLessThan(62_000);
    expect(Date.parse(d.next_attempt_at) - second).toBe(300_000);

    await advance(s, 298);
    expect(receiver.received).toHaveLength(2);
    await advance(s, 2);
    expect(receiver.received).toHaveLength(3);
    d = (await s.admin('GET', `/deliveries?bot_id=${bot.id}`)).json.deliveries[0];
    expect(d.state).toBe('FAILED');
    expect(d.next_attempt_at).toBeNull();
    expect(d.attempts.map((a: { status: number }) => a.status)).toEqual([500, 500, 500]);
    const third = Date.parse(d.attempts[2].at);
    expect(third - second).toBeGreaterThanOrEqual(300_000);
    expect(third - second).toBeLessThan(302_000);

    await advance(s, 86_400);
    expect(receiver.received).toHaveLength(3);
    const [a, b, c] = receiver.received.map((r) => r.raw);
    expect(b!.equals(a!)).toBe(true);
    expect(c!.equals(a!)).toBe(true);
    expect(JSON.parse(a!.toString()).conversation.id).toBe(raised.conversation_id);
    for (const r of receiver.received)
      expect(verify(bot.secret, r.raw, r.headers['x-service-signature'])).toBe(true);
  });

  it('408 and 429 are retried; a later 200 ends it DELIVERED', async () => {
    for (const status of [408, 429]) {
      const { s, receiver, bot } = await setup((n) => (n === 0 ? status : 200));
      const raised = await raise(s, bot.id);
      const d = await waitForDelivery(s, bot.id, raised.delivery_id, (x) => x.attempts.length === 1);
      expect(d.state, String(status)).toBe('PENDING');
      await advance(s, 60);
      const done = (await s.admin('GET', `/deliveries?bot_id=${bot.id}`)).json.deliveries[0];
      expect(done.state).toBe('DELIVERED');
      expect(done.attempts.map((a: { status: number }) => a.status)).toEqual([status, 200]);
      expect(receiver.received[1]!.raw.equals(receiver.received[0]!.raw)).toBe(true);
    }
  });

  it('an advance made while the first attempt is still under way waits for it, then runs the retry', async () => {
    const { s, receiver, bot } = await setup(() => ({ status: 503, delayMs: 300 }));
    await raise(s, bot.id);
    expect((await s.admin('GET', `/deliveries?bot_id=${bot.id}`)).json.deliveries[0].attempts).toEqual([]);
    await advance(s, 60);
    expect(receiver.received).toHaveLength(2);
    const d = (await s.admin('GET', `/deliveries?bot_id=${bot.id}`)).json.deliveries[0];
    expect(d.attempts.map((a: { status: number }) => a.status)).toEqual([503, 503]);
  });

  it('one advance of 360 s right after the event runs all three attempts', async () => {
    const { s, receiver, bot } = await setup(() => ({ status: 500, delayMs: 150 }));
    await raise(s, bot.id);
    await advance(s, 360);
    expect(receiver.received).toHaveLength(3);
    const d = (await s.admin('GET', `/deliveries?bot_id=${bot.id}`)).json.deliveries[0];
    expect(d).toMatchObject({ state: 'FAILED', next_attempt_at: null });
    expect(d.attempts).toHaveLength(3);
  });

  it('a receiver that never answers times out and is retried', async () => {
    const { s, receiver, bot } = await setup(() => 'hang', { webhookTimeoutMs: 200 });
    const raised = await raise(s, bot.id);
    const d = await waitForDelivery(s, bot.id, raised.delivery_id, (x) => x.attempts.length === 1);
    expect(d.state).toBe('PENDING');
    expect(d.attempts[0]).toMatchObject({ status: null, error: expect.stringMatching(/^TIMEOUT/) });
    expect(d.attempts[0].duration_ms).toBeGreaterThanOrEqual(190);
    await advance(s, 60);
    await advance(s, 300);
    const end = (await s.admin('GET', `/deliveries?bot_id=${bot.id}`)).json.deliveries[0];
    expect(end.state).toBe('FAILED');
    expect(end.attempts).toHaveLength(3);
    expect(receiver.received).toHaveLength(3);
  });

  it('a connection failure is retried', async () => {
    const gone = await startReceiver(() => 200);
    await gone.close();
    const s = await startServer();
    cleanups.push(() => s.stop());
    const bot = await newBot(s, gone.url);
    const raised = await raise(s, bot.id);
    const d = await waitForDelivery(s, bot.id, raised.delivery_id, (x) => x.attempts.length === 1);
    expect(d).toMatchObject({
      state: 'PENDING',
      attempts: [{ status: null, error: expect.stringMatching(/^CONNECTION-FAILED/) }],
    });
    // The owner fixes the URL: the retry goes to the new one.
    const receiver = await startReceiver(() => 200);
    cleanups.push(receiver.close);
    const put = await s.admin('PUT', `/bots/${bot.id}`, { webhook_url: receiver.url });
    expect(put.json).toEqual({
      bot: { id: bot.id, name: 'Bot', business_name: 'Biz', webhook_url: receiver.url },
    });
    await advance(s, 60);
    expect(receiver.received).toHaveLength(1);
    expect(
      verify(bot.secret, receiver.received[0]!.raw, receiver.received[0]!.headers['x-service-signature']),
    ).toBe(true);
  });

  it('400, 401 and 3xx are refusals: one attempt, REFUSED, never retried', async () => {
    for (const status of [400, 401, 302]) {
      const { s, receiver, bot } = await setup(() => status);
      const raised = await raise(s, bot.id);
      const d = await waitForDelivery(s, bot.id, raised.delivery_id, (x) => x.state !== 'PENDING');
      expect(d, String(status)).toMatchObject({
        state: 'REFUSED',
        next_attempt_at: null,
        attempts: [{ status }],
      });
      await advance(s, 3600);
      expect(receiver.received).toHaveLength(1);
    }
  });
});

describe('lead webhook: admin input', () => {
  it('a bot with no webhook URL: each attempt is a retryable failure saying why; a URL set in time gets it', async () => {
    const s = await startServer();
    cleanups.push(() => s.stop());
    const bot = await newBot(s);
    const raised = await raise(s, bot.id);
    const first = await waitForDelivery(s, bot.id, raised.delivery_id, (x) => x.attempts.length === 1);
    expect(first).toEqual({
      id: raised.delivery_id,
      bot_id: bot.id,
      conversation_id: raised.conversation_id,
      event: 'LEAD-CAPTURED',
      state: 'PENDING',
      attempts: [
        {
          at: expect.any(String),
          status: null,
          error: expect.stringMatching(/^NO-WEBHOOK-URL/),
          duration_ms: 0,
        },
      ],
      next_attempt_at: expect.any(String),
    });

    // The owner sets a URL before the retry falls due: the lead arrives.
    const receiver = await startReceiver(() => 200);
    cleanups.push(receiver.close);
    expect((await s.admin('PUT', `/bots/${bot.id}`, { webhook_url: receiver.url })).status).toBe(200);
    await advance(s, 60);
    expect(receiver.received).toHaveLength(1);
    const done = await waitForDelivery(s, bot.id, raised.delivery_id, (x) => x.state !== 'PENDING');
    expect(done.state).toBe('DELIVERED');

    // Never set: FAILED once the three attempts are used up.
    const orphan = await newBot(s);
    const lost = await raise(s, orphan.id);
    await waitForDelivery(s, orphan.id, lost.delivery_id, (x) => x.attempts.length === 1);
    await advance(s, 360);
    const failed = await waitForDelivery(s, orphan.id, lost.delivery_id, (x) => x.state !== 'PENDING');
    expect(failed.state).toBe('FAILED');
    expect(failed.attempts).toHaveLength(3);
  });

  it('answers bad input with a 4xx that says what is wrong', async () => {
    const s = await startServer();
    cleanups.push(() => s.stop());
    const bot = await newBot(s);
    const cases: [string, string, unknown, number, RegExp][] = [
      ['POST', '/bots/9999/events', { event: 'LEAD-CAPTURED', lead }, 404, /No bot/],
      ['POST', '/bots/abc/events', { event: 'LEAD-CAPTURED', lead }, 404, /No bot/],
      ['POST', `/bots/${bot.id}/events`, { event: 'LEAD-LOST', lead }, 400, /event/],
      [
        'POST',
        `/bots/${bot.id}/events`,
        { event: 'LEAD-CAPTURED', lead: { name: 'x' } },
        400,
        /lead\.email.*lead\.phone/,
      ],
      ['POST', `/bots/${bot.id}/events`, { event: 'LEAD-CAPTURED' }, 400, /lead/],
      [
        'POST',
        `/bots/${bot.id}/events`,
        { event: 'LEAD-CAPTURED', lead: { ...lead, note: 5 } },
        400,
        /lead\.note/,
      ],
      ['POST', '/bots', { client_id: 999_999, name: 'x', business_name: 'y' }, 404, /client/],
      ['POST', '/bots', { client_id: bot.clientId, name: '', business_name: 'y' }, 400, /name/],
      ['POST', '/bots', { client_id: bot.clientId, name: 'x' }, 400, /business_name/],
      [
        'POST',
        '/bots',
        { client_id: bot.clientId, name: 'x', business_name: 'y', webhook_url: 'ftp://x' },
        400,
        /webhook_url/,
      ],
      ['PUT', `/bots/${bot.id}`, { webhook_url: 'not a url' }, 400, /webhook_url/],
      ['PUT', `/bots/${bot.id}`, {}, 400, /webhook_url/],
      ['PUT', '/bots/9999', { webhook_url: 'http://127.0.0.1:1/' }, 404, /No bot/],
      ['GET', '/deliveries?bot_id=x', undefined, 400, /bot_id/],
      ['GET', '/deliveries?bot_id=9999', undefined, 404, /No bot/],
    ];
    for (const [method, path, body, status, message] of cases) {
      const res = await s.admin(method, path, body);
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(status);
      expect(res.json.error).toMatch(message);
    }
    expect(
      (await s.admin('POST', `/bots/${bot.id}/events`, { event: 'LEAD-CAPTURED', lead }, 'wrong')).status,
    ).toBe(401);
    expect((await s.admin('GET', `/deliveries?bot_id=${bot.id}`)).json.deliveries).toEqual([]);
  });
});
