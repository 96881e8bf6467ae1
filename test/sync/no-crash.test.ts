import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SyncEventName } from '../../src-main/core/sync/events';
import { fakeClock } from './fake-clock';
import { makeEngine, type SyncTestServer, startServer, tempDir, testClient } from './helpers';

/**
 * No listener, event handler or timer callback of the engine can end the process (issue 22): each
 * failure is logged with what it was doing, and the work it belonged to is retried or marked.
 * Node ends a process on an uncaught exception or an unhandled rejection; both are counted here.
 */
let server: SyncTestServer;
const uncaught: unknown[] = [];
const onUncaught = (e: unknown) => uncaught.push(e);
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});
beforeEach(() => {
  uncaught.length = 0;
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUncaught);
});
afterEach(() => {
  process.off('uncaughtException', onUncaught);
  process.off('unhandledRejection', onUncaught);
});

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

describe('a listener of the engine that throws', () => {
  it('on every event: logged with the event, the engine goes on and the file goes live', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.png'), randomBytes(1024));
    const h = makeEngine(testClient(server.baseUrl, server.demoKey));
    const events: SyncEventName[] = ['file', 'progress', 'activity', 'folder-in-sync', 'folder-scanned'];
    for (const name of events)
      h.engine.on(name, () => {
        throw new Error(`SQLITE_BUSY: database is locked (a listener of ${name}, planted)`);
      });
    try {
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'listeners' })).ok).toBe(true);
      const summary = await h.engine.waitUntilSettled();
      await turns(5);
      expect(uncaught).toEqual([]);
      expect(summary.allDone).toBe(true);
      expect(h.engine.listFiles().map((f) => f.state)).toEqual(['LIVE']);
      const said = h.engine
        .activity({ limit: 500 })
        .filter((a) => a.kind === 'listener-failed')
        .map((a) => a.message);
      for (const name of events)
        expect(
          said.some((m) => m.startsWith(`A listener of the engine's "${name}" event failed: SQLITE_BUSY`)),
        ).toBe(true);
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the database failing under a watching engine', () => {
  it('ends no timer or watcher callback in a crash: each is logged with its context and tried again', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.png'), randomBytes(1024));
    const clock = fakeClock(Date.now());
    const lines: string[] = [];
    const h = makeEngine(testClient(server.baseUrl, server.demoKey), {
      clock,
      watch: true,
      log: (line) => lines.push(line),
    });
    let seen = () => {};
    const live = new Promise<void>((r) => {
      seen = r;
    });
    h.engine.on('file', (e) => e.to === 'LIVE' && seen());
    try {
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'db-gone' })).ok).toBe(true);
      await clock.advance(200);
      await live;
      // The database goes away under the engine (a disk unplugged, a handle closed): every room's work
      // that reads or writes it now throws.
      h.db.close();
      writeFileSync(join(dir, 'b.png'), randomBytes(1024));
      // The watcher reports b.png (real time), its batch timer fires on the engine's clock and fails.
      const batchFailed = (l: string) => l.startsWith(`Applying the changes seen in ${dir} failed:`);
      while (!lines.some(batchFailed)) {
        await clock.advance(100);
        // The watcher's thread reports in real time.
        await new Promise((r) => setTimeout(r, 10));
      }
      // Then the rescan it asked for, the scans tried again with backoff, the scheduler's due timer: an
      // hour of the engine's clock fires each of them many times.
      for (let i = 0; i < 60; i++) await clock.advance(60_000);
      await turns(10);
      expect(uncaught).toEqual([]);
      // The last-resort log names what was being done.
      expect(lines.some((l) => l.startsWith(`Applying the changes seen in ${dir} failed:`))).toBe(true);
      // The failed batch asked for a scan of its folder, which ran (and failed the same way).
      expect(
        lines.some((l) => l.startsWith(`Scanning ${dir} again (a batch of changes could not be recorded)`)),
      ).toBe(true);
      const stopping = h.engine.stop();
      await clock.advance(0);
      await stopping;
      expect(uncaught).toEqual([]);
    } finally {
      await h.engine.stop();
      rmSync(h.appDir, { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
