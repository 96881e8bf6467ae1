import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEngine, type SyncTestServer, startServer, tempDir, testClient, until } from './helpers';

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

describe('a watched folder that vanishes and comes back', () => {
  it('is looked for again until it is back, and what changed before is seen without a restart', async () => {
    const parent = tempDir();
    const dir = join(parent, 'photos');
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.png'), randomBytes(2048));
    const h = makeEngine(testClient(server.baseUrl, server.demoKey), { watch: true });
    const missing = new Promise<void>((r) => h.engine.on('error', (e) => e.code === 'FOLDER-MISSING' && r()));
    const liveNames = new Set<string>();
    let renamedLive = () => {};
    const renamed = new Promise<void>((r) => {
      renamedLive = r;
    });
    h.engine.on('file', (e) => {
      if (e.to === 'LIVE') liveNames.add(e.name);
      if (e.name === 'b.png' && e.to === 'LIVE') renamedLive();
    });
    try {
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'comes-back', mode: 'mirror' })).ok).toBe(true);
      await h.engine.waitUntilSettled();
      // A file renamed, and the folder unplugged (moved away) before the watcher's batch is applied:
      // the batch finds neither name, and the folder gone. Then it is plugged back in.
      renameSync(join(dir, 'a.png'), join(dir, 'b.png'));
      renameSync(dir, `${dir}.away`);
      await missing;
      renameSync(`${dir}.away`, dir);
      await renamed;
      await h.engine.waitUntilSettled();
      const rows = Object.fromEntries(h.engine.listFiles().map((r) => [r.name, r.state]));
      expect(rows).toEqual({ 'a.png': 'DELETED', 'b.png': 'LIVE' });
      expect(h.engine.listFolders()[0]?.problem).toBeNull();
      expect((await server.liveFiles('comes-back')).map((f) => f.name)).toEqual(['b.png']);
    } finally {
      await h.close();
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

describe('a watched folder moved away and back with nothing changed inside', () => {
  it('is watched anew: a file deleted afterwards is seen without a restart', async () => {
    const parent = tempDir();
    const dir = join(parent, 'photos');
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.png'), randomBytes(2048));
    writeFileSync(join(dir, 'b.png'), randomBytes(2048));
    const h = makeEngine(testClient(server.baseUrl, server.demoKey), { watch: true });
    const lost = new Promise<void>((r) =>
      h.engine.on('activity', (a) => a.kind === 'rescan' && a.message.includes('moved or deleted') && r()),
    );
    const deleted = new Promise<void>((r) =>
      h.engine.on('file', (e) => e.name === 'a.png' && e.to === 'DELETED' && r()),
    );
    try {
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'moved-back', mode: 'mirror' })).ok).toBe(true);
      await h.engine.waitUntilSettled();
      renameSync(dir, `${dir}.away`);
      await lost;
      renameSync(`${dir}.away`, dir);
      // The native watcher stopped at the move: only a new one sees this.
      await until('a new watcher', () => h.engine.listFolders()[0]?.watching === 'native');
      rmSync(join(dir, 'a.png'));
      await deleted;
      await h.engine.waitUntilSettled();
      expect((await server.liveFiles('moved-back')).map((f) => f.name)).toEqual(['b.png']);
    } finally {
      await h.close();
      rmSync(parent, { recursive: true, force: true });
    }
  });
});
