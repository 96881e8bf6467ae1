import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileApiClient } from '../../src-main/core/service/file-api-client';
import { countingClient, makeEngine, type SyncTestServer, startServer, tempDir } from './helpers';

/**
 * Paths that never ended (issue 22): each failure leaves the row in a stated state, and
 * waitUntilSettled() (what `sync --once` waits for) ends. The server counts what was stored.
 */
let server: SyncTestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

/** The real client, whose first `uploadFile` call throws instead of answering (a bug in a client). */
function throwingOnce(client: FileApiClient): { client: FileApiClient; thrown: () => number } {
  let thrown = 0;
  const wrapped = new Proxy(client, {
    get(target, key, receiver) {
      if (key === 'uploadFile' && thrown === 0)
        return () => {
          thrown++;
          return Promise.reject(new TypeError('planted: the client threw'));
        };
      return Reflect.get(target, key, receiver);
    },
  });
  return { client: wrapped, thrown: () => thrown };
}

describe('an upload whose call throws', () => {
  it('is settled by the listing, retried, and goes live once; the run ends', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.png'), randomBytes(2048));
    const counted = countingClient(server.baseUrl, server.demoKey);
    const { client, thrown } = throwingOnce(counted.client);
    const h = makeEngine(client);
    try {
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'throws' })).ok).toBe(true);
      const summary = await h.engine.waitUntilSettled();
      expect(thrown()).toBe(1);
      expect(summary.allDone).toBe(true);
      expect(h.engine.listFiles().map((f) => f.state)).toEqual(['LIVE']);
      expect(counted.count('POST', '/files')).toBe(1);
      expect((await server.liveFiles('throws')).length).toBe(1);
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('an upload stored by the service whose LIVE row cannot be written', () => {
  const refuseLive = (
    bucketName: string,
  ) => `CREATE TRIGGER refuse_live_${bucketName} BEFORE UPDATE ON sync_files
      WHEN NEW.state = 'LIVE' AND NEW.name = 'poison.png'
      BEGIN SELECT RAISE(ABORT, 'database is locked (planted by the test)'); END`;

  it('once: the listing adopts the stored copy, nothing is sent twice, the run ends', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'poison.png'), randomBytes(4096));
    const counted = countingClient(server.baseUrl, server.demoKey);
    const h = makeEngine(counted.client);
    h.db.exec(refuseLive('once'));
    // The first refusal is reported; then the database works again.
    h.engine.on('error', () => h.db.exec('DROP TRIGGER IF EXISTS refuse_live_once'));
    try {
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'record-once' })).ok).toBe(true);
      const summary = await h.engine.waitUntilSettled();
      expect(summary.allDone).toBe(true);
      const [row] = h.engine.listFiles();
      expect(row?.state).toBe('LIVE');
      expect(counted.count('POST', '/files')).toBe(1);
      const remote = await server.liveFiles('record-once');
      expect(remote.map((f) => f.id)).toEqual([row?.remoteId]);
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('never: the row ends FAILED with the reason, still sent once, and the run ends', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'poison.png'), randomBytes(4096));
    writeFileSync(join(dir, 'fine.png'), randomBytes(4096));
    const counted = countingClient(server.baseUrl, server.demoKey);
    const h = makeEngine(counted.client, { backoff: { baseMs: 10, capMs: 40, maxAttempts: 4 } });
    h.db.exec(refuseLive('never'));
    try {
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'record-never' })).ok).toBe(true);
      const summary = await h.engine.waitUntilSettled();
      expect(summary.allDone).toBe(false);
      const rows = Object.fromEntries(h.engine.listFiles().map((f) => [f.name, f]));
      expect(rows['fine.png']?.state).toBe('LIVE');
      const poison = rows['poison.png']!;
      expect(poison.state).toBe('FAILED');
      expect(poison.nextRetryAt).toBeNull();
      expect(poison.reason).toMatch(/database is locked \(planted/);
      expect(counted.count('POST', '/files')).toBe(2);
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a watch batch that fails', () => {
  it('has its folder scanned again: the files it held are seen once the database works again', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'first.png'), randomBytes(1024));
    const h = makeEngine(countingClient(server.baseUrl, server.demoKey).client, {
      watch: true,
      backoff: { baseMs: 20, capMs: 100, maxAttempts: 12 },
    });
    const live = new Set<string>();
    let allLive = () => {};
    const bothLive = new Promise<void>((r) => {
      allLive = r;
    });
    h.engine.on('file', (e) => {
      if (e.to === 'LIVE') live.add(e.name);
      if (live.has('a.png') && live.has('b.png')) allLive();
    });
    let refused = () => {};
    const batchRefused = new Promise<void>((r) => {
      refused = r;
    });
    h.engine.on('activity', (a) => {
      if (a.kind === 'background-failed' && a.message.startsWith('Applying the changes')) refused();
    });
    try {
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'batch-fails' })).ok).toBe(true);
      await h.engine.waitUntilSettled();
      // Every new row refused (a failing disk): the batch holding both files throws.
      h.db.exec(`CREATE TRIGGER refuse_rows BEFORE INSERT ON sync_files
                 BEGIN SELECT RAISE(ABORT, 'disk I/O error (planted by the test)'); END`);
      writeFileSync(join(dir, 'a.png'), randomBytes(1024));
      writeFileSync(join(dir, 'b.png'), randomBytes(1024));
      await batchRefused;
      h.db.exec('DROP TRIGGER refuse_rows');
      // Nothing else tells the engine about them: only a scan of the folder finds them.
      await bothLive;
      expect((await server.liveFiles('batch-fails')).map((f) => f.name).sort()).toEqual([
        'a.png',
        'b.png',
        'first.png',
      ]);
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
