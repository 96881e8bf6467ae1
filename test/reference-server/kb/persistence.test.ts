import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { lead, newBot, startReceiver, startServer, waitForDelivery } from './helpers';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('lead webhook: durable deliveries', () => {
  it('a pending retry survives a restart on the same data folder and runs once it falls due', async () => {
    const receiver = await startReceiver((n) => (n === 0 ? 500 : 200));
    cleanups.push(receiver.close);
    const first = await startServer();
    const dir = first.dir;
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const bot = await newBot(first, receiver.url);
    const entry = await first.kb(bot.token, 'POST', '', { title: 'Kept', description: 'across restarts' });
    const raised = (await first.admin('POST', `/bots/${bot.id}/events`, { event: 'LEAD-CAPTURED', lead }))
      .json;
    await waitForDelivery(first, bot.id, raised.delivery_id, (d) => d.attempts.length === 1);
    // Just short of the retry; it falls due while the server is down.
    await first.admin('POST', '/clock/advance', { seconds: 59 });
    await first.stop(true);

    await new Promise((r) => setTimeout(r, 1100));
    const second = await startServer({ dataDir: dir });
    cleanups.push(() => second.server.close());
    expect(second.server.demo).toBeUndefined();
    const d = await waitForDelivery(second, bot.id, raised.delivery_id, (x) => x.state !== 'PENDING');
    expect(d.state).toBe('DELIVERED');
    expect(d.attempts.map((a: { status: number }) => a.status)).toEqual([500, 200]);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.raw.equals(receiver.received[0]!.raw)).toBe(true);
    // Bots, tokens and entries are kept too.
    expect((await second.kb(bot.token, 'GET', '')).json.entries).toEqual([entry.json.entry]);
  });

  it('a pending retry not yet due waits for the clock after a restart', async () => {
    const receiver = await startReceiver((n) => (n === 0 ? 503 : 200));
    cleanups.push(receiver.close);
    const first = await startServer();
    const dir = first.dir;
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const bot = await newBot(first, receiver.url);
    const raised = (await first.admin('POST', `/bots/${bot.id}/events`, { event: 'HANDOFF-REQUESTED', lead }))
      .json;
    await waitForDelivery(first, bot.id, raised.delivery_id, (d) => d.attempts.length === 1);
    await first.stop(true);

    const second = await startServer({ dataDir: dir });
    cleanups.push(() => second.server.close());
    const pending = (await second.admin('GET', `/deliveries?bot_id=${bot.id}`)).json.deliveries[0];
    expect(pending).toMatchObject({ state: 'PENDING', attempts: [{ status: 503 }] });
    expect(receiver.received).toHaveLength(1);
    await second.admin('POST', '/clock/advance', { seconds: 60 });
    const done = (await second.admin('GET', `/deliveries?bot_id=${bot.id}`)).json.deliveries[0];
    expect(done).toMatchObject({ state: 'DELIVERED', attempts: [{ status: 503 }, { status: 200 }] });
  });

  it('an attempt cut off by a stop does not count and goes out again after the restart', async () => {
    const receiver = await startReceiver((n) => (n === 0 ? 'hang' : 200));
    cleanups.push(receiver.close);
    const first = await startServer();
    const dir = first.dir;
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const bot = await newBot(first, receiver.url);
    const raised = (await first.admin('POST', `/bots/${bot.id}/events`, { event: 'LEAD-CAPTURED', lead }))
      .json;
    await receiver.waitFor(1);
    await first.stop(true);

    const second = await startServer({ dataDir: dir });
    cleanups.push(() => second.server.close());
    const d = await waitForDelivery(second, bot.id, raised.delivery_id, (x) => x.state !== 'PENDING');
    expect(d).toMatchObject({ state: 'DELIVERED', attempts: [{ status: 200 }] });
    expect(receiver.received[1]!.raw.equals(receiver.received[0]!.raw)).toBe(true);
  });
});

describe('the demo bot', () => {
  it('a new data folder gets a demo bot of the demo client, usable with its token', async () => {
    const s = await startServer();
    cleanups.push(() => s.stop());
    const demo = s.server.demo!;
    expect(demo).toMatchObject({
      bot_id: expect.any(Number),
      bot_token: expect.any(String),
      signing_secret: expect.any(String),
    });
    const list = await s.kb(String(demo.bot_token), 'GET', '');
    expect(list.json).toEqual({ ok: true, entries: [] });
    // No webhook URL yet: an event is recorded, and its attempt fails saying why (retried later).
    const raised = await s.admin('POST', `/bots/${demo.bot_id}/events`, { event: 'LEAD-CAPTURED', lead });
    expect(raised.status).toBe(202);
    const d = await waitForDelivery(
      s,
      Number(demo.bot_id),
      raised.json.delivery_id,
      (x) => x.attempts.length === 1,
    );
    expect(d.state).toBe('PENDING');
    expect(d.attempts[0].error).toMatch(/^NO-WEBHOOK-URL/);
  });
});
