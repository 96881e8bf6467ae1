import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEngine, type SyncTestServer, startServer, tempDir, testClient } from './helpers';

/** What the model-based test (model-based.test.ts) found, each pinned by the smallest sequence that showed it. */
let server: SyncTestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

describe('a live file that becomes one the service refuses (emptied)', () => {
  it('mirror: its copy on the service is deleted; upload-only: kept, and replaced once it can be sent again', async () => {
    const mirror = tempDir();
    const kept = tempDir();
    for (const d of [mirror, kept]) writeFileSync(join(d, 'menu.png'), randomBytes(2048));
    const h = makeEngine(testClient(server.baseUrl, server.demoKey));
    try {
      await h.engine.start();
      expect((await h.engine.addFolder({ path: mirror, bucket: 'emptied-m', mode: 'mirror' })).ok).toBe(true);
      expect((await h.engine.addFolder({ path: kept, bucket: 'emptied-k', mode: 'upload-only' })).ok).toBe(
        true,
      );
      await h.engine.waitUntilSettled();
      const [first] = await server.liveFiles('emptied-k');
      for (const d of [mirror, kept]) writeFileSync(join(d, 'menu.png'), '');
      await h.release();
      const again = makeEngine(testClient(server.baseUrl, server.demoKey), {}, h.appDir);
      try {
        await again.engine.start();
        await again.engine.waitUntilSettled();
        const rows = again.engine.listFiles();
        expect(rows.map((r) => [r.state, r.reasonCode])).toEqual([
          ['SKIPPED', 'EMPTY'],
          ['SKIPPED', 'EMPTY'],
        ]);
        // The mirror's bucket follows the folder: no stale copy of a file that is now empty.
        expect(await server.liveFiles('emptied-m')).toEqual([]);
        // Upload-only keeps what was sent, and the row still knows it as the version to replace.
        expect((await server.liveFiles('emptied-k')).map((f) => f.id)).toEqual([first?.id]);
        const keptRow = rows.find((r) => r.folderId === 2)!;
        expect(keptRow.oldRemoteId).toBe(first?.id);
        writeFileSync(join(kept, 'menu.png'), randomBytes(1024));
        await again.release();
        const third = makeEngine(testClient(server.baseUrl, server.demoKey), {}, h.appDir);
        try {
          await third.engine.start();
          await third.engine.waitUntilSettled();
          const live = await server.liveFiles('emptied-k');
          expect(live.length).toBe(1);
          expect(live[0]?.id).not.toBe(first?.id);
        } finally {
          await third.close();
        }
      } finally {
        await again.release();
      }
    } finally {
      rmSync(mirror, { recursive: true, force: true });
      rmSync(kept, { recursive: true, force: true });
    }
  });
});
