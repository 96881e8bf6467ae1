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
