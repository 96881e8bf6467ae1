import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncEvents } from '../../src-main/core/sync/events';
import { localWallClock } from '../../src-shared/domain/ist-time';
import { makeEngine, type SyncTestServer, startServer, tempDir, testClient } from './helpers';

const KiB = 1024;

// Issue 31: the engine's one estimate reads the schedule's windows ahead, not only the limit in force: a
// pause that starts before the work can end holds what is not yet sent until it ends.
describe("the engine's time left reads the schedule ahead", () => {
  let server: SyncTestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  it('a pause ahead that the work runs into is counted until it ends', async () => {
    const src = tempDir();
    // 40 files of 200 KiB at 64 KiB/s: 125 s of sending, longer than the 2 minutes to the pause.
    for (let i = 0; i < 40; i++) writeFileSync(join(src, `f${i}.txt`), Buffer.alloc(200 * KiB, i));
    const h = makeEngine(testClient(server.baseUrl, server.demoKey));
    try {
      // Every day: from this minute 64 KiB/s; a pause from 2 minutes on; unlimited 5 minutes on.
      const w = localWallClock(Date.now());
      const m = (k: number) => (w.hour * 60 + w.minute + k) % 1440;
      const startOfMinute = Date.now() - w.second * 1000 - (Date.now() % 1000);
      const pauseEnds = startOfMinute + 5 * 60_000;
      h.engine.setBandwidth({
        limit: { kind: 'off' },
        schedule: [
          { day: null, minute: m(0), limit: { kind: 'rate', bytesPerSecond: 64 * KiB } },
          { day: null, minute: m(2), limit: { kind: 'pause' } },
          { day: null, minute: m(5), limit: { kind: 'off' } },
        ],
        zone: 'local',
      });
      const estimate = new Promise<SyncEvents['progress']>((resolve) =>
        h.engine.on('progress', (p) => {
          if (p.etaSeconds !== null && p.filesTotal === 40) resolve(p);
        }),
      );
      await h.engine.start();
      const added = await h.engine.addFolder({ path: src, bucket: 'ahead' });
      expect(added.ok).toBe(true);
      const p = await estimate;
      // Not "2 min (bound by bandwidth)": the files not sent by the pause wait for its end.
      expect(p.etaBound).toBe('schedule');
      expect(p.etaSeconds!).toBeGreaterThanOrEqual((pauseEnds - Date.now()) / 1000 - 1);
    } finally {
      await h.close();
    }
  });
});
