import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AppService, createAppService } from '../../src-main/core/app/app-service';
import { createEventBus } from '../../src-main/core/app/event-bus';
import { filesStore } from '../../src-main/core/sync/state/files-store';
import type { AnyEvent, FolderView, SyncOverview } from '../../src-shared/contract';
import { memorySecrets } from '../support/secrets';

/** The app's secrets in memory: this test is about events, not the keychain (tested elsewhere). */

/** The next event named `name` that the app sends. */
const nextEvent = (app: AppService, name: AnyEvent['event']) =>
  new Promise<AnyEvent>((resolve) => {
    const off = app.subscribe((e) => {
      if (e.event !== name) return;
      off();
      resolve(e);
    });
  });

describe('snapshot events are built when they go out, not on every transition', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('the bus calls a producer once per coalesced event, with the state at that moment', async () => {
    const bus = createEventBus({ coalesce: ['activity.added'], coalesceMs: 50 });
    const seen: AnyEvent[] = [];
    bus.subscribe((e) => seen.push(e));
    let calls = 0;
    let total = 0;
    const produce = () => {
      calls++;
      return { id: total, at: 0, level: 'info' as const, message: '' };
    };
    for (total = 1; total <= 1000; total++) bus.emitLazy('activity.added', produce);
    total = 1000;
    const flushed = new Promise<void>((r) => bus.subscribe(() => r()));
    await flushed;
    // The first goes out at once, the other 999 become one event at the end of the window.
    expect(calls).toBe(2);
    expect(seen.map((e) => e.payload)).toEqual([
      { id: 1, at: 0, level: 'info', message: '' },
      { id: 1000, at: 0, level: 'info', message: '' },
    ]);
    // A producer with nothing to say sends nothing.
    bus.emitLazy('activity.added', () => null);
    bus.close();
  });

  it('a name given a longer interval waits for it while the others go out at theirs', async () => {
    // The index's status (a COUNT over the account's rows) goes out once a second, the sync's at 250 ms.
    const bus = createEventBus({
      coalesce: ['files.index.changed', 'activity.added'],
      coalesceMs: 50,
      coalesceMsOf: { 'files.index.changed': 60_000 },
    });
    const seen: string[] = [];
    bus.subscribe((e) => seen.push(e.event));
    const status = {
      count: 1,
      complete: true,
      refreshedAt: null,
      walk: { running: false, pagesDone: null, finishedAt: null },
    };
    const line = { id: 1, at: 0, level: 'info' as const, message: '' };
    bus.emit('files.index.changed', status);
    bus.emit('activity.added', line);
    // Both again inside their windows: the slow one emitted first, so at an equal interval it went first.
    bus.emit('files.index.changed', status);
    const second = new Promise<void>((r) => bus.subscribe(() => seen.length === 3 && r()));
    bus.emit('activity.added', line);
    await second;
    expect(seen).toEqual(['files.index.changed', 'activity.added', 'activity.added']);
    bus.close();
  });

  it('names that go out together: one going out by its timer takes the others waiting with it', async () => {
    // The sync overview and queue: built in the same turn, they read the folders' tallies once.
    const bus = createEventBus({
      coalesce: ['sync.queue', 'activity.added'],
      coalesceMs: 50,
      coalesceMsOf: { 'sync.queue': 60_000 },
      together: [['sync.queue', 'activity.added']],
    });
    const seen: string[] = [];
    bus.subscribe((e) => seen.push(e.event));
    const line = { id: 1, at: 0, level: 'info' as const, message: '' };
    let queues = 0;
    const queue = () => {
      queues++;
      return { active: [], waiting: queues, problems: [] };
    };
    bus.emitLazy('sync.queue', queue);
    bus.emit('activity.added', line);
    bus.emitLazy('sync.queue', queue);
    const fourth = new Promise<void>((r) => bus.subscribe(() => seen.length === 4 && r()));
    bus.emit('activity.added', line);
    await fourth;
    // The queue's own window is a minute: it went with the activity line's, built once more.
    expect(seen).toEqual(['sync.queue', 'activity.added', 'activity.added', 'sync.queue']);
    expect(queues).toBe(2);
    bus.close();
  });

  it('1,000 file transitions in one window compute the overview a handful of times', async () => {
    const root = mkdtempSync(join(tmpdir(), 'app-coalesce-'));
    dirs.push(root);
    const folder = join(root, 'folder');
    mkdirSync(folder);
    const app = await createAppService({
      dataDir: join(root, 'data'),
      secrets: memorySecrets(),
      env: {},
      log: () => {},
    });
    try {
      expect((await app.call('session.useSandbox', {})).ok).toBe(true);
      const added = await app.call('sync.folders.add', {
        path: folder,
        bucket: 'coalesce',
        mode: 'upload-only',
      });
      expect(added.ok).toBe(true);
      const folderId = (added as { value: FolderView }).value.id;
      // 1,000 rows that failed for good (files that are not on disk: after the retry they end DELETED).
      const rows = filesStore(app.context.db);
      app.context.db.transaction(() => {
        for (let i = 0; i < 1000; i++) {
          const id = rows.insertNew(folderId, `f${i}.png`, { size: 1, mtimeMs: 1, inode: i + 1 }, 0);
          rows.transition(id, 'FAILED', {
            reasonCode: 'TEST',
            reason: 'made by the test',
            nextRetryAt: null,
          });
        }
      })();

      const before = app.stats().overviewComputations;
      // One call, one synchronous loop: 1,000 FAILED -> NEW transitions inside one coalescing window.
      const retried = await app.call('sync.retry', {});
      expect(retried.ok).toBe(true);
      const sent = (await nextEvent(app, 'sync.changed')).payload as SyncOverview;
      const computed = app.stats().overviewComputations - before;
      expect(computed).toBeGreaterThanOrEqual(1);
      expect(computed).toBeLessThanOrEqual(3);
      // What went out is the state after the loop, not the first transition's.
      expect(sent.folders[0]!.counts.failed).toBe(0);
    } finally {
      await app.close();
    }
  });

  // Every upload touches the remote index (its follower writes the row); the status it sends is a
  // COUNT over the account's rows. Built per upload, a sync of n files cost n counts of up to n rows.
  it('the remote index status is built per event sent, not per upload', async () => {
    const root = mkdtempSync(join(tmpdir(), 'app-index-status-'));
    dirs.push(root);
    const folder = join(root, 'folder');
    mkdirSync(folder);
    const count = 40;
    const past = new Date(Date.now() - 60_000);
    for (let i = 0; i < count; i++) {
      const file = join(folder, `f${i}.txt`);
      writeFileSync(file, `file ${i}\n`);
      utimesSync(file, past, past);
    }
    const app = await createAppService({
      dataDir: join(root, 'data'),
      secrets: memorySecrets(),
      env: {},
      log: () => {},
      engine: { stabilityMs: 0 },
    });
    try {
      expect((await app.call('session.useSandbox', {})).ok).toBe(true);
      let statusEvents = 0;
      let live = 0;
      const allLive = new Promise<void>((resolve) =>
        app.subscribe((e) => {
          if (e.event === 'files.index.changed') statusEvents++;
          if (e.event !== 'sync.changed') return;
          live = (e.payload as SyncOverview).folders[0]?.counts.live ?? 0;
          if (live === count) resolve();
        }),
      );
      const before = app.stats();
      const added = await app.call('sync.folders.add', {
        path: folder,
        bucket: 'statuses',
        mode: 'upload-only',
      });
      expect(added.ok).toBe(true);
      await allLive;
      const after = app.stats();
      expect(after.indexWrites - before.indexWrites).toBeGreaterThanOrEqual(count);
      const built = after.indexStatusComputations - before.indexStatusComputations;
      // One per event that went out (one more may be on its way), far fewer than the uploads.
      expect(built).toBeLessThanOrEqual(statusEvents + 1);
      expect(built).toBeLessThan(count / 2);
      // The overview and the queue that go out together read the folders' tallies once (a COUNT per
      // state over every row of the folder: at 20,000 files the app's largest cost per event sent).
      const overviews = after.overviewComputations - before.overviewComputations;
      const queues = after.queueComputations - before.queueComputations;
      expect(after.folderListings - before.folderListings).toBeLessThan(overviews + queues);
    } finally {
      await app.close();
    }
  });
});

describe('coalesced events across a step of the wall clock (issue 33)', () => {
  it('a wall clock set back 10 minutes does not hold the next coalesced event', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    try {
      const bus = createEventBus({ coalesce: ['activity.added'], coalesceMs: 250 });
      const seen: AnyEvent[] = [];
      bus.subscribe((e) => seen.push(e));
      const entry = (id: number) => ({ id, at: 0, level: 'info' as const, message: '' });
      bus.emit('activity.added', entry(1));
      expect(seen).toHaveLength(1);
      vi.setSystemTime(Date.now() - 10 * 60_000);
      bus.emit('activity.added', entry(2));
      await vi.advanceTimersByTimeAsync(250);
      expect(seen).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
