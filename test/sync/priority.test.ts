import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileApiClient } from '../../src-main/core/service/file-api-client';
import { closePools } from '../../src-main/core/service/http-pool';
import { createRequestBudget } from '../../src-main/core/service/request-budget';
import { FILE_API_BUDGET_DEFAULT_PER_MINUTE } from '../../src-shared/domain/limits';
import { makeEngine, type SyncTestServer, startServer, tempDir } from './helpers';

// Priority lanes against the real reference server at the service's limit (120 a minute) and the
// app's default budget (115): a 2,000-file backlog from the first scan, then one file dropped while
// the app watches. Counted in requests at the server, not in wall time.

const BACKLOG = 2_000;
let srv: SyncTestServer;
let dir: string;
beforeAll(async () => {
  srv = await startServer({ ratePerMinute: 120 });
  dir = tempDir('priority-');
  for (let i = 0; i < BACKLOG; i++)
    writeFileSync(join(dir, `b${String(i).padStart(4, '0')}.txt`), `backlog ${i}\n`);
});
afterAll(async () => {
  await closePools();
  await srv.stop();
});

const totalRequests = async () => (await srv.admin<{ total: number }>('GET', '/requests')).json.total;

describe('what was just dropped goes first', () => {
  it('a file dropped behind a 2,000-file backlog is the next upload to start once ready, and the backlog keeps its order', {
    timeout: 240_000,
  }, async () => {
    const client = createFileApiClient({
      baseUrl: srv.baseUrl,
      apiKey: srv.demoKey,
      budget: createRequestBudget({ perMinute: FILE_API_BUDGET_DEFAULT_PER_MINUTE }),
      timeoutMs: 30_000,
    });
    const h = makeEngine(client, { service: 'priority-test', watch: true, concurrency: 4 });
    const started: { name: string; id: number }[] = [];
    let live = 0;
    let seenAt: Promise<number> | null = null;
    let queuedAt: Promise<number> | null = null;
    let startedAfterSeen = 0;
    // Backlog uploads started between dropped.txt being ready and its own start (counted by event:
    // the server's request total also counts uploads already in flight and the engine's other requests).
    let readyAt = -1;
    let startedAhead = -1;
    const droppedLive = new Promise<number>((resolve, reject) => {
      h.engine.on('file', (e) => {
        if (e.to === 'UPLOADING') {
          if (e.name === 'dropped.txt' && readyAt >= 0 && startedAhead < 0)
            startedAhead = started.length - readyAt;
          started.push({ name: e.name, id: e.fileId });
          if (seenAt && e.name !== 'dropped.txt' && ++startedAfterSeen > 12)
            reject(new Error(`${startedAfterSeen} backlog uploads started after the dropped file was seen`));
        }
        if (e.to === 'LIVE') live++;
        if (e.name !== 'dropped.txt') return;
        if (e.to === 'NEW' && !seenAt) seenAt = totalRequests();
        // Hashed and ready to send: from here on only its place in the queue decides.
        if (e.to === 'QUEUED' && !queuedAt) {
          queuedAt = totalRequests();
          readyAt = started.length;
        }
        if (e.to === 'LIVE') void totalRequests().then(resolve, reject);
        if (e.to === 'FAILED' || e.to === 'SKIPPED') reject(new Error(`dropped.txt ${e.to}: ${e.reason}`));
      });
    });
    try {
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'prio' })).ok).toBe(true);
      // The first window's allowance spent: the backlog now waits for the window to slide.
      await new Promise<void>((resolve) => {
        const off = h.engine.on('file', () => {
          if (live >= FILE_API_BUDGET_DEFAULT_PER_MINUTE) {
            off();
            resolve();
          }
        });
      });
      const queueOrder = () =>
        h.db
          .prepare(
            `SELECT id FROM sync_files WHERE state IN ('NEW', 'QUEUED') AND name != 'dropped.txt' ORDER BY priority DESC, id`,
          )
          .all()
          .map((r) => (r as { id: number }).id);
      const before = queueOrder();
      writeFileSync(join(dir, 'dropped.txt'), 'dropped now\n');
      const liveAt = await droppedLive;
      const seen = await seenAt!;
      const ready = await queuedAt!;
      console.log(
        `dropped.txt live ${liveAt - seen} requests after it was seen, ${liveAt - ready} after it was ready`,
      );
      // Once ready, it is the next upload to start (two allowed for a slot taken as it became ready),
      // against a backlog of ~1,880. The server's request total between ready and live is only logged:
      // it also counts the uploads already in flight, waiting on the budget, and was 3 to 8 on one tree.
      expect(startedAhead).toBeGreaterThanOrEqual(0);
      expect(startedAhead).toBeLessThanOrEqual(2);
      // The backlog waits in the order it had before the drop, less what was sent meanwhile.
      const after = queueOrder();
      const sent = new Set(started.map((s) => s.id));
      expect(after).toEqual(before.filter((id) => !sent.has(id)));
      expect(after.length).toBeGreaterThan(BACKLOG / 2);
      const backlog = started.filter((s) => s.name !== 'dropped.txt').map((s) => s.id);
      expect(new Set(backlog).size).toBe(backlog.length);
      expect(backlog.length).toBeLessThan(BACKLOG);
    } finally {
      await h.close();
    }
  });
});
