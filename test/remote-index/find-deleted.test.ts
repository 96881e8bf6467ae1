import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRemoteIndex } from '../../src-main/core/remote-index/remote-index';
import { closePools } from '../../src-main/core/service/http-pool';
import { countedClient, liveIds, serverWithClient, tempAppDb } from './helpers';

/**
 * Files deleted behind the index's back (another install, the dashboard, a script): the listing's
 * meta.total, read by the keeper's refresh anyway, says how many; a bisection over the listing's pages
 * says which, in a few requests, and notes them for the watched folders (`gone`). Real reference
 * server, real SQLite; the requests are counted at the client.
 */
describe.each([1_000, 10_000])('deleted elsewhere, among %i files', (files) => {
  let env: Awaited<ReturnType<typeof serverWithClient>>;
  let seeded: { first_id: number; last_id: number };
  beforeAll(async () => {
    env = await serverWithClient();
    seeded = await env.seed(files);
  }, 120_000);
  afterAll(async () => {
    await closePools();
    await env.srv.stop();
  });

  it('one refresh shows the count, a bisection finds each deleted file; the rows are told', async () => {
    const app = tempAppDb();
    try {
      const index = createRemoteIndex(app.db).forAccount({
        service: env.srv.baseUrl,
        clientId: env.clientId,
      });
      const c = countedClient(env.srv.baseUrl, env.apiKey);
      const filled = await index.refresh(c.client);
      expect(filled.ok && filled.value.complete).toBe(true);
      expect(index.status().count).toBe(files);

      // Another install deletes three files: one in the middle, the newest, the oldest.
      const other = countedClient(env.srv.baseUrl, env.apiKey).client;
      const middle = seeded.first_id + Math.floor(files / 3);
      const doomed = [middle, seeded.last_id, seeded.first_id];
      for (const id of doomed) expect((await other.deleteFile(id)).ok).toBe(true);

      c.reset();
      const r = await index.refresh(c.client, { lane: 'background' });
      if (!r.ok) throw new Error(r.error.message);
      // Nothing new to read: one request, and its meta.total is the signal.
      expect(c.sent.length).toBe(1);
      expect(r.value.listedTotal).toBe(files - 3);
      expect(index.status().count).toBe(files);

      c.reset();
      const found = await index.findDeleted(c.client, { lane: 'background' });
      if (!found.ok) throw new Error(found.error.message);
      expect(found.value).toMatchObject({ removed: 3, settled: true });
      const pages = Math.ceil(files / 100);
      // About log2(pages) + 2 a place where files went: far below the walk's `pages` requests.
      expect(found.value.requests).toBeLessThanOrEqual(3 * (Math.ceil(Math.log2(pages)) + 3));
      console.log(
        `${files} files, 3 deleted elsewhere: 1 refresh request, then ${found.value.requests} to find them (a walk: ${pages})`,
      );
      expect(c.sent.every((s) => s.lane === 'background')).toBe(true);
      expect([...index.each()].map((f) => f.id)).toEqual(await liveIds(c.client));
      expect(index.gone().sort()).toEqual([...doomed].sort());
      index.forgetGone(doomed);
      expect(index.gone()).toEqual([]);

      // Nothing else went: the next one costs its first page only.
      c.reset();
      const quiet = await index.findDeleted(c.client, { lane: 'background' });
      expect(quiet.ok && quiet.value).toMatchObject({ removed: 0, settled: true, requests: 1 });
    } finally {
      app.close();
    }
  }, 180_000);
});
