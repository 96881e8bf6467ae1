import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  mkdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileRow } from '../../src-main/core/sync/types';
import { makeEngine, md5Of, type SyncTestServer, startServer, tempDir, testClient } from './helpers';

let server: SyncTestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

const byName = (rows: FileRow[]) => new Map(rows.map((r) => [r.name, r]));

describe('bad input ends in a clear per-file state', () => {
  it('skips what cannot be sent, with the reason, and uploads odd but valid names', async () => {
    const dir = tempDir();
    const longName = `${'n'.repeat(251)}.txt`; // 255 bytes, the usual file-name limit
    writeFileSync(join(dir, 'tool.exe'), 'MZ');
    writeFileSync(join(dir, 'empty.txt'), '');
    writeFileSync(join(dir, 'big.mp4'), '');
    execFileSync('truncate', ['-s', String(209_715_200 + 1), join(dir, 'big.mp4')]); // sparse: no disk used
    writeFileSync(join(dir, 'héllo wörld ☃ 名前.txt'), 'unicode');
    writeFileSync(join(dir, longName), 'long');
    writeFileSync(join(dir, '-rf.txt'), 'dash');
    writeFileSync(join(dir, '--help.pdf'), 'dash2');
    symlinkSync('loop-b.txt', join(dir, 'loop-a.txt'));
    symlinkSync('loop-a.txt', join(dir, 'loop-b.txt'));
    symlinkSync('nowhere.txt', join(dir, 'dangling.txt'));
    // Tests run as root, where chmod 000 does not stop a read: a FIFO is the file that cannot be read.
    execFileSync('mkfifo', [join(dir, 'pipe.txt')]);
    mkdirSync(join(dir, 'folder.png'));
    writeFileSync(join(dir, 'folder.png', 'inside.txt'), 'inside');
    writeFileSync(join(dir, 'vanishes.txt'), 'here at scan time');

    const h = makeEngine(testClient(server.baseUrl, server.demoKey), { stabilityMs: 400 });
    try {
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'bad' })).ok).toBe(true);
      // Seen by the scan, gone before its stability window ends and it is hashed.
      unlinkSync(join(dir, 'vanishes.txt'));
      const summary = await h.engine.waitUntilSettled();
      const rows = byName(h.engine.listFiles({ limit: 100 }));
      const state = (n: string) => [rows.get(n)?.state, rows.get(n)?.reasonCode];
      expect(state('tool.exe')).toEqual(['SKIPPED', 'EXTENSION-NOT-ALLOWED']);
      expect(state('empty.txt')).toEqual(['SKIPPED', 'EMPTY']);
      expect(state('big.mp4')).toEqual(['SKIPPED', 'FILE-TOO-LARGE']);
      expect(state('loop-a.txt')).toEqual(['SKIPPED', 'LINK-LOOP']);
      expect(state('loop-b.txt')).toEqual(['SKIPPED', 'LINK-LOOP']);
      expect(state('dangling.txt')).toEqual(['SKIPPED', 'BROKEN-LINK']);
      expect(state('pipe.txt')).toEqual(['SKIPPED', 'NOT-A-FILE']);
      expect(state('vanishes.txt')).toEqual(['DELETED', 'LOCAL-DELETE']);
      for (const n of ['héllo wörld ☃ 名前.txt', '-rf.txt', '--help.pdf', 'folder.png/inside.txt']) {
        expect(state(n), n).toEqual(['LIVE', null]);
      }
      // The service decides about a 255-byte name; either way the row says what happened.
      const long = rows.get(longName)!;
      expect(['LIVE', 'FAILED']).toContain(long.state);
      if (long.state === 'FAILED') expect(long.reason).toBeTruthy();
      for (const r of rows.values()) if (r.state === 'SKIPPED') expect(r.reason, r.name).toBeTruthy();
      expect(summary.stopped).toBeNull();

      const live = await server.liveFiles('bad');
      expect(live.find((f) => f.name === 'héllo wörld ☃ 名前.txt')?.hash).toBe(
        md5Of(join(dir, 'héllo wörld ☃ 名前.txt')),
      );
      expect(live.some((f) => f.name.includes('big') || f.name.includes('tool'))).toBe(false);
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('waits for a file still being written and uploads its final bytes once', async () => {
    const dir = tempDir();
    const path = join(dir, 'growing.txt');
    writeFileSync(path, 'start\n');
    const h = makeEngine(testClient(server.baseUrl, server.demoKey), { stabilityMs: 250 });
    try {
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'growing' })).ok).toBe(true);
      for (let i = 0; i < 12; i++) {
        appendFileSync(path, `line ${i} ${'x'.repeat(1000)}\n`);
        await new Promise((r) => setTimeout(r, 60));
      }
      const summary = await h.engine.waitUntilSettled();
      expect(summary.allDone).toBe(true);
      const live = await server.liveFiles('growing');
      expect(live).toHaveLength(1);
      expect(live[0]!.hash).toBe(md5Of(path));
      expect(h.engine.listFiles()[0]!.md5).toBe(md5Of(path));
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a folder renamed during a sync: nothing crashes, nothing remote is deleted, files wait for it', async () => {
    const parent = tempDir();
    const dir = join(parent, 'photos');
    mkdirSync(dir);
    for (let i = 0; i < 30; i++) writeFileSync(join(dir, `p${i}.jpg`), Buffer.alloc(20_000 + i, i));
    const h = makeEngine(testClient(server.baseUrl, server.demoKey), { stabilityMs: 0, concurrency: 2 });
    const errors: string[] = [];
    h.engine.on('error', (e) => errors.push(e.code));
    try {
      await h.engine.start();
      let renamed = false;
      h.engine.on('file', (e) => {
        if (e.to === 'LIVE' && !renamed) {
          renamed = true;
          renameSync(dir, join(parent, 'photos-2025'));
        }
      });
      expect((await h.engine.addFolder({ path: dir, bucket: 'renamed', mode: 'mirror' })).ok).toBe(true);
      const summary = await h.engine.waitUntilSettled();
      expect(renamed).toBe(true);
      expect(summary.allDone).toBe(false);
      const rows = h.engine.listFiles({ limit: 100 });
      for (const r of rows) {
        expect(['LIVE', 'FAILED']).toContain(r.state);
        if (r.state === 'FAILED') expect(r.reasonCode).toBe('FOLDER-MISSING');
      }
      expect(errors).toContain('FOLDER-MISSING');
      expect(h.engine.listFolders()[0]!.problem).toMatch(/missing/);
      const liveRows = rows.filter((r) => r.state === 'LIVE').length;
      expect((await server.liveFiles('renamed')).length).toBe(liveRows);

      // Back under its old name, the waiting files go up.
      renameSync(join(parent, 'photos-2025'), dir);
      await h.engine.updateFolder(h.engine.listFolders()[0]!.id, { ignore: '' });
      const again = await h.engine.waitUntilSettled();
      expect(again.allDone).toBe(true);
      expect((await server.liveFiles('renamed')).length).toBe(30);
    } finally {
      await h.close();
      rmSync(parent, { recursive: true, force: true });
    }
  });
});
