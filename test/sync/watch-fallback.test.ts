import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncEvents } from '../../src-main/core/sync/events';
import type { NativeSubscribe } from '../../src-main/core/sync/watch/watch-folder';
import { makeEngine, type SyncTestServer, startServer, tempDir, testClient, until } from './helpers';

let server: SyncTestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

/** Fails as @parcel/watcher does when the inotify table is full. */
const inotifyFull: NativeSubscribe = async (dir) => {
  throw new Error(`inotify_add_watch on '${dir}' failed: No space left on device`);
};

describe('a full inotify table', () => {
  it('falls back to polling, says how to raise the limit, and still picks up a new file', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'first.png'), randomBytes(1024));
    const h = makeEngine(testClient(server.baseUrl, server.demoKey), {
      watch: true,
      subscribeNative: inotifyFull,
      pollIntervalMs: 100,
      stabilityMs: 100,
    });
    const errors: SyncEvents['error'][] = [];
    h.engine.on('error', (e) => errors.push(e));
    try {
      await h.engine.start();
      const added = await h.engine.addFolder({ path: dir, bucket: 'polled' });
      expect(added.ok).toBe(true);
      await until('the first file live', () => h.engine.listFiles({ state: 'LIVE' }).length === 1);
      expect(h.engine.listFolders()[0]!.watching).toBe('polling');
      const fallback = h.engine.activity().find((a) => a.kind === 'watch-fallback');
      expect(fallback?.message).toMatch(/sysctl fs\.inotify\.max_user_watches=\d+/);
      expect(fallback?.message).toMatch(/polled/);
      expect(errors.map((e) => e.code)).toContain('WATCH-FALLBACK');

      // Let the catch-up scan after the watcher started finish: from here only the poller can see a file.
      await until('the folder idle', () => h.engine.listFolders()[0]!.inSync);
      await new Promise((r) => setTimeout(r, 300));
      writeFileSync(join(dir, 'second.png'), randomBytes(2048));
      await until('the new file live', () => h.engine.listFiles({ state: 'LIVE' }).length === 2, 10_000);
      expect((await server.liveFiles('polled')).map((f) => f.name).sort()).toEqual([
        'first.png',
        'second.png',
      ]);
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
