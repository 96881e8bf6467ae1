import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { feedAnswers } from '../../src-main/relay/feed-answers';
import { openRelayDatabase } from '../../src-main/relay/relay-db';
import { createRelayStore } from '../../src-main/relay/relay-store';
import { deliver, leadBody, readFeed, relays, signBody } from './helpers';

// Anyone with the read token (every desk has it) asking from cursor 0 again and again read a full page
// from the database each time: a read load that slowed deliveries beside it to about 1 a second
// (issue 32). The same question between two changes is now answered with the same bytes, read once.
const r = relays();
afterEach(() => r.cleanup());

const post = (url: string, conversation: number) => {
  const body = leadBody(conversation);
  return deliver(url, body, { 'x-service-signature': signBody(body, 'bot-secret') });
};

describe('feed answers kept between changes', () => {
  it('answers the same cursor again without reading the database, and reads again once a delivery came', async () => {
    const relay = await r.start({ dataDir: r.dir() });
    for (let c = 1; c <= 3; c++) expect((await post(relay.webhookUrl, c)).status).toBe(200);
    const reads = relay.feedReads();
    const first = await readFeed(relay, 'after=0&limit=2');
    expect(first.json.deliveries.map((d: { seq: number }) => d.seq)).toEqual([1, 2]);
    expect(first.json.waiting).toBe(1);
    for (let i = 0; i < 50; i++) expect((await readFeed(relay, 'after=0&limit=2')).json).toEqual(first.json);
    expect(relay.feedReads() - reads).toBe(1);

    // A new delivery changes what follows the cursor (here the count still waiting): read again.
    expect((await post(relay.webhookUrl, 4)).status).toBe(200);
    const after = await readFeed(relay, 'after=0&limit=2');
    expect(after.json.deliveries.map((d: { seq: number }) => d.seq)).toEqual([1, 2]);
    expect(after.json.waiting).toBe(2);
    expect(relay.feedReads() - reads).toBe(2);
    // Another cursor is another question.
    expect(
      (await readFeed(relay, 'after=2&limit=2')).json.deliveries.map((d: { seq: number }) => d.seq),
    ).toEqual([3, 4]);
    expect(relay.feedReads() - reads).toBe(3);
  });

  it('a sweep of retention is a change: a kept answer never names a delivery it deleted', () => {
    const dir = r.dir();
    const db = openRelayDatabase(join(dir, 'relay.sqlite'));
    let t = 1_000;
    const store = createRelayStore(db, () => t);
    const answers = feedAnswers(store);
    const body = Buffer.from(leadBody(1));
    store.storeDeliveries([
      { botId: 7, conversationId: 1, event: 'LEAD-CAPTURED', signature: 'sha256=a', contentType: null, body },
    ]);
    const before = JSON.parse(answers.answer(0, 10).text);
    expect(before.deliveries).toHaveLength(1);
    t = 10_000;
    expect(store.sweep(5_000).deliveries).toBe(1);
    const swept = JSON.parse(answers.answer(0, 10).text);
    expect(swept.deliveries).toHaveLength(0);
    expect(swept.expired).toBe(1);
    expect(answers.reads()).toBe(2);
    db.close();
  });
});

describe('a relay stopping while a desk polls', () => {
  it('stops: the desk asking again at once on its kept-alive connection does not hold it open', async () => {
    let waiting!: () => void;
    const waited = new Promise<void>((resolve) => (waiting = resolve));
    const relay = await r.start({ dataDir: r.dir(), onPollWaiting: () => waiting() });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    let answers = 0;
    let polling = true;
    let answered!: () => void;
    const firstAnswer = new Promise<void>((resolve) => (answered = resolve));
    // A desk: asks again the moment it is answered, on the same kept-alive connection.
    const ask = (): void => {
      const req = request(
        `${relay.url}/v1/feed?after=999&wait=20`,
        { agent, headers: { authorization: `Bearer ${relay.token}` } },
        (res) => {
          res.resume();
          res.on('end', () => {
            answers++;
            answered();
            if (polling) ask();
          });
        },
      );
      req.on('error', () => {
        polling = false;
      });
      req.end();
    };
    ask();
    await waited;
    // Before the fix the stop never ended (the test's timeout): each ask was answered and kept alive.
    await relay.close();
    // The waiting poll was answered (not cut), and the desk then met a closed door.
    await firstAnswer;
    polling = false;
    agent.destroy();
    expect(answers).toBeGreaterThanOrEqual(1);
  });
});
