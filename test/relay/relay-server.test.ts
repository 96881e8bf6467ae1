import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openRelayDatabase } from '../../src-main/relay/relay-db';
import { bearerToken, sameSecret } from '../../src-main/relay/relay-keys';
import { RelayFeedSchema } from '../../src-shared/api/relay';
import { deliver, leadBody, readFeed, relays, signBody } from './helpers';

const SECRET = 'whsec_bot_secret';
const r = relays();
afterEach(() => r.cleanup());

describe('the relay takes deliveries', () => {
  it('stores a signed delivery byte for byte, once per signature, and hands it to a reader with the token', async () => {
    const relay = await r.start({ dataDir: r.dir() });
    const body = leadBody(501);
    const first = await deliver(relay.webhookUrl, body, { 'x-service-signature': signBody(body, SECRET) });
    const again = await deliver(relay.webhookUrl, body, { 'x-service-signature': signBody(body, SECRET) });
    expect(first).toEqual({ status: 200, json: { ok: true, duplicate: false } });
    expect(again).toEqual({ status: 200, json: { ok: true, duplicate: true } });
    // A forged copy claiming the same conversation is kept beside the real one, not in its place.
    const forged = await deliver(relay.webhookUrl, leadBody(501, 7, 'Mallory'), {
      'x-service-signature': signBody(leadBody(501, 7, 'Mallory'), 'not-the-secret'),
    });
    expect(forged.json).toEqual({ ok: true, duplicate: false });

    const feed = await readFeed(relay, 'after=0');
    expect(feed.status).toBe(200);
    const parsed = RelayFeedSchema.parse(feed.json);
    expect(parsed.deliveries).toHaveLength(2);
    expect(Buffer.from(parsed.deliveries[0]!.body, 'base64').toString('utf8')).toBe(body);
    expect(parsed.deliveries[0]).toMatchObject({ event: 'LEAD-CAPTURED', signature: signBody(body, SECRET) });
    expect(parsed.next).toBe(parsed.deliveries[1]!.seq);
    expect((await readFeed(relay, `after=${parsed.next}`)).json).toMatchObject({
      deliveries: [],
      waiting: 0,
    });
  });

  it('refuses what no desk could take: a wrong path secret is 404, unsigned is 401, a wrong shape is 422', async () => {
    const relay = await r.start({ dataDir: r.dir() });
    const body = leadBody(502);
    const sig = { 'x-service-signature': signBody(body, SECRET) };
    const wrongPath = relay.webhookUrl.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await deliver(wrongPath, body, sig)).status).toBe(404);
    expect((await deliver(`${relay.url}/hooks/`, body, sig)).status).toBe(404);
    expect((await deliver(relay.webhookUrl, body, {})).status).toBe(401);
    expect((await deliver(relay.webhookUrl, body, { 'x-service-signature': 'sha256=abc' })).status).toBe(401);
    const shaped = JSON.stringify({ ...JSON.parse(body), lead: { name: { first: 'R' } } });
    const bad = await deliver(relay.webhookUrl, shaped, { 'x-service-signature': signBody(shaped, SECRET) });
    expect(bad).toMatchObject({ status: 422, json: { field: 'lead.name' } });
    expect(
      (await deliver(relay.webhookUrl, '{oops', { 'x-service-signature': signBody('{oops', SECRET) })).status,
    ).toBe(400);
    expect(relay.stored()).toBe(0);
  });

  it('reads only with the read token, and the webhook secret is not a read token', async () => {
    const relay = await r.start({ dataDir: r.dir() });
    const secretOfPath = relay.webhookUrl.split('/hooks/')[1]!;
    expect(secretOfPath).not.toBe(relay.token);
    for (const token of ['', 'rlt_wrong', secretOfPath, `${relay.token}x`]) {
      const res = await fetch(`${relay.url}/v1/feed`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      expect(res.status).toBe(401);
      await res.body?.cancel();
    }
    // The read token cannot post a delivery: the webhook path is the only door, and it wants the other secret.
    const body = leadBody(503);
    const planted = await fetch(`${relay.url}/v1/feed`, {
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${relay.token}`, 'x-service-signature': signBody(body, SECRET) },
    });
    expect(planted.status).toBe(405);
    await planted.body?.cancel();
    expect(
      (
        await deliver(`${relay.url}/hooks/${relay.token}`, body, {
          'x-service-signature': signBody(body, SECRET),
        })
      ).status,
    ).toBe(404);
    expect(relay.stored()).toBe(0);
  });

  it('holds a long poll open until a delivery is stored', async () => {
    let waiting: () => void = () => {};
    const pollWaits = new Promise<void>((resolve) => {
      waiting = resolve;
    });
    const relay = await r.start({ dataDir: r.dir(), onPollWaiting: () => waiting() });
    const polled = readFeed(relay, 'after=0&wait=20');
    await pollWaits;
    const body = leadBody(504);
    await deliver(relay.webhookUrl, body, { 'x-service-signature': signBody(body, SECRET) });
    const feed = await polled;
    expect(feed.json.deliveries).toHaveLength(1);
  });

  it('keeps its keys across restarts, replaces the read token on request, and commits with synchronous FULL', async () => {
    const dataDir = r.dir();
    const a = await r.start({ dataDir });
    const { webhookUrl, token } = a;
    await a.close();
    const b = await r.start({ dataDir });
    expect(b.webhookUrl.split('/hooks/')[1]).toBe(webhookUrl.split('/hooks/')[1]);
    expect(b.token).toBe(token);
    await b.close();
    const c = await r.start({ dataDir, newReadToken: true });
    expect(c.token).not.toBe(token);
    expect((await readFeed(c, 'after=0', token)).status).toBe(401);
    expect((await readFeed(c, 'after=0')).status).toBe(200);
    await c.close();
    const db = openRelayDatabase(join(dataDir, 'relay.sqlite'));
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      // 2 is FULL: each commit is fsync'd before the 2xx (NORMAL, 1, may lose the last ones on power loss).
      expect(db.pragma('synchronous', { simple: true })).toBe(2);
    } finally {
      db.close();
    }
  });

  it('deletes deliveries past the retention it states, and keeps younger ones', async () => {
    const dataDir = r.dir();
    let now = Date.parse('2025-01-01T00:00:00Z');
    const a = await r.start({ dataDir, retentionDays: 90, now: () => now });
    for (const id of [601, 602]) {
      const body = leadBody(id);
      await deliver(a.webhookUrl, body, { 'x-service-signature': signBody(body, SECRET) });
      now += 10 * 24 * 3600 * 1000;
    }
    await a.close();
    now = Date.parse('2025-01-01T00:00:00Z') + 95 * 24 * 3600 * 1000;
    const b = await r.start({ dataDir, retentionDays: 90, now: () => now });
    const feed = await readFeed(b, 'after=0');
    expect(feed.json.deliveries).toHaveLength(1);
    expect(JSON.parse(Buffer.from(feed.json.deliveries[0].body, 'base64').toString()).conversation.id).toBe(
      602,
    );
  });
});

describe('relay secrets', () => {
  it('compares through digests of equal length, whatever was given', () => {
    expect(sameSecret('rlt_abc', 'rlt_abc')).toBe(true);
    expect(sameSecret('rlt_ab', 'rlt_abc')).toBe(false);
    expect(sameSecret('', 'rlt_abc')).toBe(false);
    expect(sameSecret('x'.repeat(10_000), 'rlt_abc')).toBe(false);
    expect(bearerToken('Bearer rlt_abc')).toBe('rlt_abc');
    expect(bearerToken('Basic rlt_abc')).toBeNull();
  });
});
