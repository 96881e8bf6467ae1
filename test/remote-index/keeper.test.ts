import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepIndexFresh } from '../../src-main/core/remote-index/index-keeper';
import { createRemoteIndex } from '../../src-main/core/remote-index/remote-index';
import { closePools } from '../../src-main/core/service/http-pool';
import type { IndexStatus } from '../../src-shared/contract/remote-index';
import { fakeClock } from '../sync/fake-clock';
import { until } from '../sync/helpers';
import { countedClient, liveIds, serverWithClient, tempAppDb } from './helpers';

// The keeper the app runs per account: background refreshes, and the walk when due.

let env: Awaited<ReturnType<typeof serverWithClient>>;
beforeAll(async () => {
  env = await serverWithClient();
  await env.seed(250);
});
afterAll(async () => {
  await closePools();
  await env.srv.stop();
});

describe('keeping the index fresh', () => {
  it('fills the index, walks once, picks up new files by itself, all in the background lane; stop ends it', async () => {
    const app = tempAppDb();
    try {
      const index = createRemoteIndex(app.db).forAccount({
        service: env.srv.baseUrl,
        clientId: env.clientId,
      });
      const c = countedClient(env.srv.baseUrl, env.apiKey);
      const seen: IndexStatus[] = [];
      const keeper = keepIndexFresh({
        index,
        client: c.client,
        refreshEveryMs: 50,
        onChange: (s) => seen.push(s),
      });
      try {
        await until('the first walk finished', () => index.status().walk.finishedAt !== null);
        expect(index.status()).toMatchObject({ count: 250, complete: true, walk: { running: false } });
        const walked = c.listings();
        await env.seed(7, { prefix: 'later-' });
        await until('the new files indexed', () => index.status().count === 257);
        // Refreshes, not another walk: a walk runs at most daily.
        await until('a few more refreshes', () => c.listings() >= walked + 3);
        expect(index.status().walk.running).toBe(false);
      } finally {
        await keeper.stop();
      }
      expect(c.sent.every((s) => s.lane === 'background')).toBe(true);
      expect(seen.length).toBeGreaterThan(3);
      const after = c.sent.length;
      expect([...index.each()].map((f) => f.id)).toEqual(await liveIds(c.client));
      expect(c.sent.length).toBe(after + 3); // only this test's own listing above: the keeper is gone
    } finally {
      app.close();
    }
  });

  it('waits on the clock it is given: an hour apart on a fake clock, refreshed as the clock moves (issue 33)', async () => {
    const app = tempAppDb();
    try {
      const index = createRemoteIndex(app.db).forAccount({
        service: env.srv.baseUrl,
        clientId: env.clientId,
      });
      const c = countedClient(env.srv.baseUrl, env.apiKey);
      const clock = fakeClock(Date.now());
      const keeper = keepIndexFresh({ index, client: c.client, refreshEveryMs: 60 * 60_000, clock });
      try {
        await until('the first walk finished', () => index.status().walk.finishedAt !== null);
        await until('asleep for the hour', () => clock.pending() === 1);
        const before = c.listings();
        await clock.advance(60 * 60_000);
        await until('refreshed when the fake hour passed', () => c.listings() > before);
      } finally {
        const stopping = keeper.stop();
        await clock.advance(0);
        await stopping;
      }
    } finally {
      app.close();
    }
  });

  it('a key that stops working stops the keeper and says why', async () => {
    const app = tempAppDb();
    try {
      const index = createRemoteIndex(app.db).forAccount({
        service: env.srv.baseUrl,
        clientId: env.clientId,
      });
      const c = countedClient(env.srv.baseUrl, 'ask_not-a-real-key');
      let stopped: string | null = null;
      const keeper = keepIndexFresh({
        index,
        client: c.client,
        refreshEveryMs: 50,
        onStopped: (e) => {
          stopped = e.code;
        },
      });
      await until('stopped', () => stopped !== null);
      expect(stopped).toBe('UNAUTHENTICATED');
      const sent = c.sent.length;
      await keeper.stop();
      expect(c.sent.length).toBe(sent);
    } finally {
      app.close();
    }
  });
});

describe('the watch at its own cadence (issue 31)', () => {
  it('idle it sends at most 2 requests a minute; a delete made elsewhere is out of the index within 90 s', async () => {
    const app = tempAppDb();
    const own = await serverWithClient();
    try {
      await own.seed(30);
      const index = createRemoteIndex(app.db).forAccount({
        service: own.srv.baseUrl,
        clientId: own.clientId,
      });
      const c = countedClient(own.srv.baseUrl, own.apiKey);
      const clock = fakeClock(Date.now());
      // The keeper's default interval, on a clock the test moves: a second at a time, each step waiting
      // until the keeper sleeps again (its requests are real ones, to a real server).
      const keeper = keepIndexFresh({ index, client: c.client, clock });
      const asleep = () => until('the keeper waits for its next refresh', () => clock.pending() > 0);
      const sentAt: number[] = [];
      const step = async () => {
        const before = c.sent.length;
        await clock.advance(1_000);
        await asleep();
        for (let i = before; i < c.sent.length; i++) sentAt.push(clock.now());
      };
      try {
        await asleep();
        expect(index.status()).toMatchObject({ count: 30, complete: true });
        // Idle for ten minutes: no 60 s holds more than 2 requests.
        const idleFrom = clock.now();
        for (let s = 0; s < 600; s++) await step();
        const idle = sentAt.filter((t) => t > idleFrom);
        expect(idle.length).toBeGreaterThan(0);
        for (const t of idle)
          expect(idle.filter((u) => u > t - 60_000 && u <= t).length).toBeLessThanOrEqual(2);

        // The newest file: outside every page's range, only the listing's count says it went, and the
        // bisection finds it.
        const victim = (await liveIds(c.client))[0]!;
        expect((await c.client.deleteFile(victim)).ok).toBe(true);
        index.forgetGone(index.gone()); // the test's own delete went through the counted client
        const deletedAt = clock.now();
        const sentBefore = c.sent.length;
        while (index.get(victim) && clock.now() - deletedAt <= 120_000) await step();
        expect(index.get(victim)).toBeNull();
        expect(clock.now() - deletedAt).toBeLessThanOrEqual(90_000);
        expect(index.gone()).toContain(victim);
        // The refresh in the background lane; the bisection, rare and short, in the user lane (under
        // background's 5% cap its sixth request waited a minute).
        const after = c.sent.slice(sentBefore);
        expect(after[0]!.lane).toBe('background');
        expect(after.slice(1).length).toBeGreaterThan(0);
        expect(after.slice(1).every((x) => x.lane === 'user')).toBe(true);
      } finally {
        await keeper.stop();
      }
    } finally {
      app.close();
      await own.srv.stop();
    }
  }, 120_000);
});
