import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRemoteIndex } from '../../src-main/core/remote-index/remote-index';
import { WALK_INTERVAL_MS } from '../../src-main/core/remote-index/walk';
import { closePools } from '../../src-main/core/service/http-pool';
import { countedClient, liveIds, serverWithClient, tempAppDb } from './helpers';

// The full walk that finds files deleted elsewhere, against a real reference server.

let env: Awaited<ReturnType<typeof serverWithClient>>;
beforeAll(async () => {
  env = await serverWithClient();
  await env.seed(1_000);
});
afterAll(async () => {
  await closePools();
  await env.srv.stop();
});

describe('remote index walk', () => {
  it('finds files deleted elsewhere, in background requests, resuming after a restart where it stopped', async () => {
    const app = tempAppDb();
    try {
      const account = { service: env.srv.baseUrl, clientId: env.clientId };
      let idx = createRemoteIndex(app.db).forAccount(account);
      const c = countedClient(env.srv.baseUrl, env.apiKey);
      expect((await idx.refresh(c.client)).ok).toBe(true);
      expect(idx.walkDue()).toBe(true);
      const ids = await liveIds(c.client);
      // Deleted elsewhere: inside pages, the oldest ones (no later page covers them), and ids[502],
      // which (after every change below) falls between the last file of page 5 and the first of
      // page 6: no page's range holds it, so the walk asks for it alone.
      const gone = [ids[5]!, ids[99]!, ids[100]!, ids[450]!, ids[502]!, ids[698]!, ids[999]!, ids[998]!];
      for (const id of gone) expect((await c.client.deleteFile(id)).ok).toBe(true);
      // Meanwhile this app uploads nothing; another device adds files (they go to the top).
      await env.seed(3, { prefix: 'elsewhere-' });

      c.reset();
      const first = await idx.walk(c.client, { maxRequests: 3 });
      expect(first.ok && first.value).toMatchObject({ finished: false, pages: 3 });
      expect(c.sent.every((s) => s.lane === 'background')).toBe(true);
      expect(idx.status().walk).toMatchObject({ running: true, pagesDone: 3 });

      // A restart: the same database opened again; more files deleted elsewhere meanwhile, one of
      // them on a page already walked (the next walk finds it) and one ahead.
      const later = [ids[10]!, ids[800]!];
      for (const id of later) expect((await c.client.deleteFile(id)).ok).toBe(true);
      app.reopen();
      idx = createRemoteIndex(app.db).forAccount(account);
      c.reset();
      const rest = await idx.walk(c.client);
      if (!rest.ok) throw new Error(rest.error.message);
      expect(rest.value.finished).toBe(true);
      // It went on from page 4, stepping back once (ids[10] moved every later file back one place),
      // not from page 1; the one file between two pages was asked for alone.
      expect(c.listings()).toBe(1 + 10 - 3 + 1);
      expect(c.sent.filter((s) => /\/files\/\d+$/.test(s.path))).toEqual([
        { method: 'GET', path: `/api/assets/v1/files/${ids[502]}`, lane: 'background' },
      ]);
      const indexed = new Set([...idx.each()].map((f) => f.id));
      for (const id of [...gone, ids[800]!]) expect(indexed.has(id), `id ${id}`).toBe(false);
      // The one deleted behind the walk is still there; the three new files came in too.
      expect(indexed.has(ids[10]!)).toBe(true);
      expect(idx.status().count).toBe(1_000 + 3 - gone.length - 1);
      expect(idx.walkDue()).toBe(false);
      expect(idx.walkDue(Date.now() + WALK_INTERVAL_MS)).toBe(true);

      // The next walk finds the one behind it; the index then equals the listing.
      const next = await idx.walk(c.client);
      expect(next.ok && next.value.finished).toBe(true);
      expect([...idx.each()].map((f) => f.id)).toEqual(await liveIds(c.client));
    } finally {
      app.close();
    }
  });

  it('an index that never saw the account fills from a walk, and a walk ends a refresh cut short', async () => {
    const app = tempAppDb();
    try {
      const idx = createRemoteIndex(app.db).forAccount({ service: env.srv.baseUrl, clientId: env.clientId });
      const c = countedClient(env.srv.baseUrl, env.apiKey);
      expect((await idx.refresh(c.client, { maxRequests: 2 })).ok).toBe(true);
      expect(idx.status().complete).toBe(false);
      const w = await idx.walk(c.client);
      expect(w.ok && w.value.finished).toBe(true);
      expect(idx.status().complete).toBe(true);
      c.reset();
      const r = await idx.refresh(c.client);
      expect(r.ok && r.value).toMatchObject({ requests: 1, added: 0 });
      expect([...idx.each()].map((f) => f.id)).toEqual(await liveIds(c.client));
    } finally {
      app.close();
    }
  });
});
