import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRemoteIndex } from '../../src-main/core/remote-index/remote-index';
import { closePools } from '../../src-main/core/service/http-pool';
import { countedClient, liveIds, serverWithClient, tempAppDb } from './helpers';

// The incremental refresh against a real reference server: requests counted on the client.

let env: Awaited<ReturnType<typeof serverWithClient>>;
beforeAll(async () => {
  env = await serverWithClient();
});
afterAll(async () => {
  await closePools();
  await env.srv.stop();
});

const indexedIds = (idx: ReturnType<ReturnType<typeof createRemoteIndex>['forAccount']>) =>
  [...idx.each()].map((f) => f.id);

describe('remote index refresh', () => {
  it('a cold refresh lists every page once; after 5 new files the next spends one request', async () => {
    await env.seed(1_050, { buckets: ['one', 'two'] });
    const app = tempAppDb();
    try {
      const idx = createRemoteIndex(app.db).forAccount({ service: env.srv.baseUrl, clientId: env.clientId });
      const c = countedClient(env.srv.baseUrl, env.apiKey);
      let firstRowsAfter: number | null = null;
      const cold = await idx.refresh(c.client, {
        onPage: (p) => {
          // The first page is in the index (and queryable) before the second is asked for.
          if (firstRowsAfter === null) {
            firstRowsAfter = p.requests;
            const first = idx.page({ limit: 5 });
            expect(first.ok && first.value.files.length).toBe(5);
          }
        },
      });
      expect(cold.ok && cold.value).toMatchObject({ requests: 11, added: 1_050, complete: true });
      expect(firstRowsAfter).toBe(1);
      expect(c.sent.every((s) => s.lane === 'user')).toBe(true);
      expect(idx.status()).toMatchObject({ count: 1_050, complete: true });

      const sum = idx.summary({ bucket: 'one' });
      expect(sum.ok && sum.value).toEqual({ count: 525, bytes: 525 * 1024 });

      await env.seed(5, { prefix: 'new-' });
      c.reset();
      const warm = await idx.refresh(c.client);
      expect(warm.ok && warm.value).toMatchObject({ requests: 1, added: 5, complete: true });
      expect(c.listings()).toBe(1);

      // 250 new: three pages, the third reaching what is known.
      await env.seed(250, { prefix: 'more-' });
      c.reset();
      const more = await idx.refresh(c.client);
      expect(more.ok && more.value).toMatchObject({ requests: 3, added: 250 });
      expect(indexedIds(idx)).toEqual(await liveIds(c.client));

      // Nothing new: one request, nothing added.
      c.reset();
      const none = await idx.refresh(c.client);
      expect(none.ok && none.value).toMatchObject({ requests: 1, added: 0 });
    } finally {
      app.close();
    }
  });

  it('a refresh cut short keeps its place: the next reads the new files, then goes on where it stopped', async () => {
    const app = tempAppDb();
    try {
      const idx = createRemoteIndex(app.db).forAccount({ service: env.srv.baseUrl, clientId: env.clientId });
      const c = countedClient(env.srv.baseUrl, env.apiKey);
      const live = await liveIds(c.client);
      c.reset();
      const part = await idx.refresh(c.client, { maxRequests: 4 });
      expect(part.ok && part.value).toMatchObject({ requests: 4, added: 400, complete: false });
      expect(idx.status().complete).toBe(false);
      // The app closes and opens again; 30 files arrive meanwhile.
      await env.seed(30, { prefix: 'while-away-' });
      app.reopen();
      const again = createRemoteIndex(app.db).forAccount({
        service: env.srv.baseUrl,
        clientId: env.clientId,
      });
      c.reset();
      const rest = await again.refresh(c.client);
      if (!rest.ok) throw new Error(rest.error.message);
      expect(rest.value.complete).toBe(true);
      expect(again.status().count).toBe(live.length + 30);
      expect(indexedIds(again)).toEqual(await liveIds(c.client));
      // Page 1 for the new files, then the pages not read yet (with a step or two to find the place):
      // far fewer than listing everything again.
      const pagesLeft = Math.ceil((live.length - 400) / 100);
      expect(rest.value.requests).toBeGreaterThanOrEqual(pagesLeft);
      expect(rest.value.requests).toBeLessThanOrEqual(pagesLeft + 3);
    } finally {
      app.close();
    }
  });

  it('files deleted elsewhere inside a page the refresh reads leave the index; an empty account empties it', async () => {
    const other = await serverWithClient();
    const app = tempAppDb();
    try {
      await other.seed(120);
      const idx = createRemoteIndex(app.db).forAccount({
        service: other.srv.baseUrl,
        clientId: other.clientId,
      });
      const c = countedClient(other.srv.baseUrl, other.apiKey);
      expect((await idx.refresh(c.client)).ok).toBe(true);
      const ids = await liveIds(c.client);
      // Delete three files among the newest hundred, through a client the index does not follow.
      for (const id of [ids[3]!, ids[50]!, ids[98]!]) expect((await c.client.deleteFile(id)).ok).toBe(true);
      await other.seed(2);
      const r = await idx.refresh(c.client);
      expect(r.ok && r.value).toMatchObject({ requests: 1, added: 2, removed: 3 });
      expect(indexedIds(idx)).toEqual(await liveIds(c.client));
      for (const id of await liveIds(c.client)) expect((await c.client.deleteFile(id)).ok).toBe(true);
      const empty = await idx.refresh(c.client);
      expect(empty.ok && empty.value.complete).toBe(true);
      expect(idx.status()).toMatchObject({ count: 0, complete: true });
      // An account that never had a file: complete at once.
      const fresh = createRemoteIndex(app.db).forAccount({ service: 'elsewhere', clientId: 99 });
      const none = await serverWithClient();
      try {
        const r2 = await fresh.refresh(countedClient(none.srv.baseUrl, none.apiKey).client);
        expect(r2.ok && r2.value).toMatchObject({ requests: 1, complete: true });
        expect(fresh.status()).toMatchObject({ count: 0, complete: true });
      } finally {
        await none.srv.stop();
      }
    } finally {
      app.close();
      await other.srv.stop();
    }
  });
});
