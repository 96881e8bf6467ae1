import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileApiClient } from '../../src-main/core/service/file-api-client';
import { closePools } from '../../src-main/core/service/http-pool';
import { createRequestBudget, type RequestBudget } from '../../src-main/core/service/request-budget';
import { makeEngine, type SyncTestServer, startServer, tempDir } from './helpers';

// Priority lanes against the real reference server at its limit, with the request budget spent: a
// backlog from the first scan waits for the budget's window to slide, and one file is dropped while
// the app watches. The budget's clock is the test's: the window slides when the test moves it, so
// nothing waits a real minute, and every bound is counted in events (uploads started, grants made).
// The large case (2,000 files at the service's own 115 a minute) is `npm run bench:sync`'s.

const BACKLOG = 120;
const PER_MINUTE = 20;
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

/**
 * A real budget on a clock the test moves, which notes the order of its grants (a file just dropped
 * takes its place `first`). configure() makes it look at its clock again, as a change of the setting does.
 */
function budgetOnTestClock(perMinute: number) {
  let offset = 0;
  const real = createRequestBudget({ perMinute, now: () => Date.now() + offset });
  const grants: { first: boolean }[] = [];
  let asked = 0;
  const waitingFor: { n: number; resolve: () => void }[] = [];
  const wake = () => {
    for (const w of waitingFor.filter((x) => asked - grants.length >= x.n)) {
      waitingFor.splice(waitingFor.indexOf(w), 1);
      w.resolve();
    }
  };
  let sent = 0;
  const waiters: { n: number; resolve: () => void }[] = [];
  const budget: RequestBudget = Object.create(real, {
    take: {
      value: (signal?: AbortSignal, lane?: Parameters<RequestBudget['take']>[1], first?: boolean) => {
        const p = real.take(signal, lane, first);
        asked++;
        void p.then(
          () => grants.push({ first: first === true }),
          () => undefined,
        );
        wake();
        return p;
      },
    },
  });
  return {
    budget,
    grants,
    /** Called by the client for each request it sends (after its grant). */
    onRequest() {
      sent++;
      for (const w of waiters.filter((x) => sent >= x.n)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    },
    /** Resolves once `n` requests wait for their place at the same time. */
    untilWaiting: (n: number) =>
      new Promise<void>((resolve) => {
        waitingFor.push({ n, resolve });
        wake();
      }),
    untilSent: (n: number) =>
      new Promise<void>((resolve) => (sent >= n ? resolve() : waiters.push({ n, resolve }))),
    slideWindow() {
      offset += 60_000;
      real.configure({ perMinute });
    },
    release: () => real.configure({ perMinute: 0 }),
  };
}

describe('what was just dropped goes first', () => {
  it('a file dropped behind a spent budget and a backlog starts at once on its own slot, is granted first when the window slides, and the backlog keeps its order', {
    timeout: 60_000,
  }, async () => {
    const b = budgetOnTestClock(PER_MINUTE);
    const client = createFileApiClient({
      baseUrl: srv.baseUrl,
      apiKey: srv.demoKey,
      budget: b.budget,
      timeoutMs: 30_000,
      onRequest: () => b.onRequest(),
    });
    const h = makeEngine(client, { service: 'priority-test', watch: true, concurrency: 4 });
    const started: { name: string; id: number }[] = [];
    let seen = false;
    let startedAfterSeen = 0;
    // Backlog uploads started between dropped.txt being ready (QUEUED) and its own start.
    let readyAt = -1;
    let startedAhead = -1;
    let grantsAtSlide = -1;
    const droppedQueued = new Promise<void>((resolve) => {
      h.engine.on('file', (e) => {
        if (e.name === 'dropped.txt' && e.to === 'QUEUED') {
          readyAt = started.length;
          resolve();
        }
      });
    });
    const droppedLive = new Promise<void>((resolve, reject) => {
      h.engine.on('file', (e) => {
        if (e.to === 'UPLOADING') {
          if (e.name === 'dropped.txt' && readyAt >= 0 && startedAhead < 0)
            startedAhead = started.length - readyAt;
          started.push({ name: e.name, id: e.fileId });
          if (seen && e.name !== 'dropped.txt' && ++startedAfterSeen > 8)
            reject(new Error(`${startedAfterSeen} backlog uploads started after the dropped file was seen`));
        }
        if (e.name !== 'dropped.txt') return;
        if (e.to === 'NEW') seen = true;
        if (e.to === 'LIVE') resolve();
        if (e.to === 'FAILED' || e.to === 'SKIPPED') reject(new Error(`dropped.txt ${e.to}: ${e.reason}`));
      });
    });
    try {
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'prio' })).ok).toBe(true);
      // The window's allowance spent, and every upload slot waiting for it to slide.
      await b.untilSent(PER_MINUTE);
      await b.untilWaiting(4);
      const queueOrder = () =>
        h.db
          .prepare(
            `SELECT id FROM sync_files WHERE state IN ('NEW', 'HASHING', 'QUEUED') AND name != 'dropped.txt' ORDER BY priority DESC, id`,
          )
          .all()
          .map((r) => (r as { id: number }).id);
      const before = queueOrder();
      writeFileSync(join(dir, 'dropped.txt'), 'dropped now\n');
      await droppedQueued;
      // Its upload asks for a place too, on the slot kept for the live lane: five wait now.
      await b.untilWaiting(5);
      grantsAtSlide = b.grants.length;
      b.slideWindow();
      await droppedLive;
      // Ready, it starts on the slot kept for the live lane: no backlog upload starts before it.
      expect(startedAhead).toBe(0);
      // When the window slides, its request is the first granted, ahead of the backlog already waiting.
      expect(b.grants.slice(grantsAtSlide, grantsAtSlide + 1)).toEqual([{ first: true }]);
      expect(b.grants.filter((g) => g.first)).toHaveLength(1);
      // The backlog waits in the order it had before the drop, less what was sent meanwhile.
      const after = queueOrder();
      const sent = new Set(started.map((s) => s.id));
      expect(after).toEqual(before.filter((id) => !sent.has(id)));
      expect(after.length).toBeGreaterThan(BACKLOG / 2);
      const backlog = started.filter((s) => s.name !== 'dropped.txt').map((s) => s.id);
      expect(new Set(backlog).size).toBe(backlog.length);
    } finally {
      b.release();
      await h.close();
    }
  });
});
