import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadProgressTracker } from '../../src-main/core/app/upload-progress';
import type { SyncEvents } from '../../src-main/core/sync/events';
import { makeEngine, type SyncTestServer, startServer, tempDir, testClient } from './helpers';

let server: SyncTestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

describe('per-file upload progress from the engine', () => {
  it('reports each file’s bytes as they leave, ending at its size before it goes live', async () => {
    const dir = tempDir();
    const big = 6 * 1024 * 1024 + 123;
    writeFileSync(join(dir, 'big.mp4'), randomBytes(big));
    writeFileSync(join(dir, 'small.png'), randomBytes(3000));
    const h = makeEngine(testClient(server.baseUrl, server.demoKey));
    const seen: (SyncEvents['upload-progress'] | { live: number })[] = [];
    h.engine.on('upload-progress', (p) => seen.push(p));
    h.engine.on('file', (e) => {
      if (e.to === 'LIVE') seen.push({ live: e.fileId });
    });
    try {
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'progress' })).ok).toBe(true);
      expect((await h.engine.waitUntilSettled()).allDone).toBe(true);
      for (const row of h.engine.listFiles()) {
        const mine = seen.filter(
          (x) => 'fileId' in x && x.fileId === row.id,
        ) as SyncEvents['upload-progress'][];
        expect(mine.length, row.name).toBeGreaterThan(0);
        expect(mine.every((p) => p.totalBytes === row.size && p.folderId === row.folderId)).toBe(true);
        const sent = mine.map((p) => p.sentBytes);
        expect(sent).toEqual([...sent].sort((a, b) => a - b));
        expect(sent.at(-1)).toBe(row.size);
        const liveAt = seen.findIndex((x) => 'live' in x && x.live === row.id);
        expect(seen.indexOf(mine.at(-1)!)).toBeLessThan(liveAt);
      }
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the app’s tracker turns the events into bytes, speed and ETA per file, and forgets ended uploads', () => {
    let t = 1_000;
    const tracker = uploadProgressTracker(() => t);
    const ev = (sentBytes: number) => ({ fileId: 7, folderId: 1, sentBytes, totalBytes: 10_000_000 });
    tracker.onProgress(ev(0));
    for (let i = 1; i <= 10; i++) {
      t += 200;
      tracker.onProgress(ev(i * 200_000));
    }
    const p = tracker.progressOf(7)!;
    expect(p.sentBytes).toBe(2_000_000);
    expect(p.sizeBytes).toBe(10_000_000);
    // 200 KB per 200 ms is 1 MB/s: after one half-life (2 s) the average has come half way to it.
    expect(p.bytesPerSecond).toBeGreaterThanOrEqual(450_000);
    expect(p.bytesPerSecond).toBeLessThanOrEqual(1_000_000);
    expect(p.etaSeconds).toBeGreaterThanOrEqual(8);
    expect(tracker.progressOf(8)).toBeNull();
    // A retry starts over at 0: a fresh count, not a negative speed.
    t += 200;
    tracker.onProgress(ev(100));
    expect(tracker.progressOf(7)!.sentBytes).toBe(100);
    tracker.forget(7);
    expect(tracker.progressOf(7)).toBeNull();
  });
});
