import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncEvents } from '../../src-main/core/sync/events';
import { makeEngine, type SyncTestServer, startServer, tempDir, testClient, until } from './helpers';

let server: SyncTestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

describe('a background task that fails', () => {
  it('is recorded in the activity log and as an error event, and the engine goes on', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'first.png'), randomBytes(1024));
    const h = makeEngine(testClient(server.baseUrl, server.demoKey), { watch: true, stabilityMs: 100 });
    const errors: SyncEvents['error'][] = [];
    h.engine.on('error', (e) => errors.push(e));
    try {
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'background' })).ok).toBe(true);
      await until('the first file live', () => h.engine.listFiles({ state: 'LIVE' }).length === 1);
      await until('the folder idle', () => h.engine.listFolders()[0]!.inSync);

      // A write the database refuses (as on a full or failing disk), for one path only: the watch
      // batch that records it throws inside a task nobody awaits.
      h.db.exec(`CREATE TRIGGER refuse_poison BEFORE INSERT ON sync_files WHEN NEW.name = 'poison.png'
                 BEGIN SELECT RAISE(ABORT, 'disk I/O error (planted by the test)'); END`);
      writeFileSync(join(dir, 'poison.png'), randomBytes(1024));
      await until('the failure in the activity log', () =>
        h.engine.activity().some((a) => a.kind === 'background-failed'),
      );
      const entry = h.engine.activity().find((a) => a.kind === 'background-failed')!;
      expect(entry.message).toMatch(/^Applying the changes seen in .* failed: disk I\/O error \(planted/);
      expect(errors.some((e) => e.code === 'BACKGROUND-FAILED' && e.message === entry.message)).toBe(true);

      // Still running: the next file is seen, sent and live.
      expect(h.engine.state.running).toBe(true);
      writeFileSync(join(dir, 'second.png'), randomBytes(2048));
      await until('the next file live', () =>
        h.engine.listFiles({ state: 'LIVE' }).some((f) => f.name === 'second.png'),
      );
      expect((await server.liveFiles('background')).map((f) => f.name).sort()).toEqual([
        'first.png',
        'second.png',
      ]);
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
