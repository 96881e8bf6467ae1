import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_MIGRATIONS } from '../../src-main/core/state/migrations';
import type { SyncEvents } from '../../src-main/core/sync/events';
import { ignoreRules } from '../../src-main/core/sync/local/ignore-rules';
import { type Listed, listTree, type MarkCheck } from '../../src-main/core/sync/local/list-tree';
import { filesStore } from '../../src-main/core/sync/state/files-store';
import { foldersStore } from '../../src-main/core/sync/state/folders-store';
import { scanMarksStore } from '../../src-main/core/sync/state/scan-marks-store';
import { openDatabase } from '../../src-main/shared-node/sqlite';
import { countingClient, makeEngine, md5Of, startServer, tempDir } from './helpers';

// A restart over an unchanged tree stops at the last consistent scan's mark (scanner.ts): these show
// what the mark's digest covers, when the rows' generation moves, and that a change made while the app
// was closed is never hidden by a mark.

/** One walk by find (expected: Infinity picks find), its files and digest. */
async function walk(root: string, mark: MarkCheck) {
  const w = listTree(
    root,
    ignoreRules(''),
    () => undefined,
    Number.POSITIVE_INFINITY,
    undefined,
    undefined,
    mark,
  );
  const same = w.sameAsMark ? await w.sameAsMark : undefined;
  const all: Listed[] = [];
  for await (const batch of w.batches) all.push(...batch);
  return { same, names: all.map((l) => l.name).sort(), digest: w.digest(), complete: w.complete() };
}

describe.runIf(process.platform === 'linux')("a walk's digest (find's output)", () => {
  let root: string;
  beforeAll(() => {
    root = tempDir('scan-mark-');
    mkdirSync(join(root, 'a/b'), { recursive: true });
    for (let i = 0; i < 20; i++) writeFileSync(join(root, `a/f-${i}.txt`), `file ${i}`);
    writeFileSync(join(root, 'a/b/deep.txt'), 'deep');
    writeFileSync(join(root, '.hidden'), 'ignored by the built-in rules');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('is the same for two walks of an unchanged tree, and a walk that matches it lists nothing', async () => {
    const first = await walk(root, { asked: 'x' });
    expect(first.complete).toBe(true);
    expect(first.digest).toMatch(/^[0-9a-f]{40}$/);
    expect(first.names).toHaveLength(21);
    const second = await walk(root, { asked: 'x' });
    expect(second.digest).toBe(first.digest);
    const checked = await walk(root, { asked: 'x', expect: first.digest! });
    expect(checked.same).toBe(true);
    expect(checked.names).toEqual([]);
    expect(checked.digest).toBe(first.digest);
  });

  it('changes with an mtime, a new file, a removed file or what was asked; then every file is listed', async () => {
    const before = (await walk(root, { asked: 'x' })).digest!;
    expect((await walk(root, { asked: 'y' })).digest).not.toBe(before);

    utimesSync(join(root, 'a/f-3.txt'), new Date(1_700_000_000_000), new Date(1_700_000_000_123));
    const touched = await walk(root, { asked: 'x', expect: before });
    expect(touched.same).toBe(false);
    // Read again from its start: the same files as a walk with no mark.
    expect(touched.names).toEqual((await walk(root, { asked: 'x' })).names);
    expect(touched.names).toHaveLength(21);
    expect(touched.digest).not.toBe(before);

    writeFileSync(join(root, 'a/new.txt'), 'new');
    const added = await walk(root, { asked: 'x', expect: touched.digest! });
    expect(added.same).toBe(false);
    expect(added.names).toContain('a/new.txt');

    unlinkSync(join(root, 'a/new.txt'));
    const removed = await walk(root, { asked: 'x', expect: added.digest! });
    expect(removed.same).toBe(false);
    expect(removed.names).not.toContain('a/new.txt');
    // The folder's own mtime moved too (find lists folders with theirs).
    expect(removed.digest).not.toBe(added.digest);
  });

  it('is none for a walk that met a link or another special file (its target is not in the record)', async () => {
    const dir = tempDir('scan-mark-link-');
    try {
      writeFileSync(join(dir, 'plain.txt'), 'x');
      expect((await walk(dir, { asked: 'x' })).digest).not.toBeNull();
      symlinkSync(join(dir, 'plain.txt'), join(dir, 'link.txt'));
      const linked = await walk(dir, { asked: 'x' });
      expect(linked.digest).toBeNull();
      unlinkSync(join(dir, 'link.txt'));
      execFileSync('mkfifo', [join(dir, 'pipe.txt')]);
      expect((await walk(dir, { asked: 'x' })).digest).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the rows' generation (SQLite triggers) and the mark", () => {
  let appDir: string;
  beforeAll(() => {
    appDir = mkdtempSync(join(tmpdir(), 'scan-mark-db-'));
  });
  afterAll(() => rmSync(appDir, { recursive: true, force: true }));

  it('holds through the plain way of an upload, and not through a change a scan would notice', () => {
    const db = openDatabase(join(appDir, 'app.sqlite'), APP_MIGRATIONS);
    try {
      const folders = foldersStore(db);
      const files = filesStore(db);
      const marks = scanMarksStore(db);
      const folder = folders.insert({ path: '/tmp/x', bucket: 'b', mode: 'upload-only' });
      const mark = { digest: 'd1', files: 1, ignored: '{"count":0,"examples":[]}' };
      const start = marks.begin(folder.id);
      expect(start.mark).toBeNull();
      const row = { id: files.insertNew(folder.id, 'a.txt', { size: 1, mtimeMs: 1, inode: 1 }, 0) };
      // The scan wrote a row after it began: its mark is not kept.
      expect(marks.save(folder.id, start.gen, mark)).toBe(false);
      expect(marks.begin(folder.id).mark).toBeNull();

      const clean = marks.begin(folder.id);
      expect(marks.save(folder.id, clean.gen, mark)).toBe(true);
      expect(marks.begin(folder.id).mark).toMatchObject({ digest: 'd1', files: 1 });
      for (const to of [
        'HASHING',
        'QUEUED',
        'UPLOADING',
        'LIVE',
        'NEW',
        'HASHING',
        'QUEUED',
        'UPLOADING',
        'LIVE',
      ] as const)
        expect(files.transition(row.id, to, to === 'LIVE' ? { remoteId: 7 } : {})).not.toBeNull();
      expect(marks.begin(folder.id).mark).toMatchObject({ digest: 'd1' });

      // A size seen anew, a failure, a new row: each moves the generation.
      for (const change of [
        () => files.transition(row.id, 'NEW', { size: 2 }),
        () => files.transition(row.id, 'FAILED', { reasonCode: 'X', reason: 'x' }),
        () => files.insertNew(folder.id, 'b.txt', { size: 1, mtimeMs: 1, inode: 2 }, 0),
      ]) {
        const before = marks.begin(folder.id);
        expect(marks.save(folder.id, before.gen, mark)).toBe(true);
        change();
        expect(marks.begin(folder.id).mark).toBeNull();
      }
      // Removing the folder removes its mark.
      folders.remove(folder.id);
      expect(db.prepare('SELECT count(*) AS n FROM sync_scan_marks').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });
});

describe.runIf(process.platform === 'linux')('a restart stops at the mark, and never over a change', () => {
  it('unchanged: the second restart reads no row and sends nothing; changes made while closed are all seen', async () => {
    const server = await startServer();
    const dir = tempDir();
    const appDir = mkdtempSync(join(tmpdir(), 'sync-app-'));
    // find walks folders of 2,000 files or more (list-tree.ts); the mark is find's. One file in 41 is
    // sent (50 in all); the rest have an extension the service refuses and stay SKIPPED, rows a
    // restart compares all the same, without 2,000 uploads to wait for.
    const count = 2_050;
    const name = (i: number) => `${i % 2 ? 'sub/' : ''}f-${i}.${i % 41 === 0 || i === 1 ? 'txt' : 'bin'}`;
    const sendable = Array.from({ length: count }, (_, i) => name(i)).filter((n) =>
      n.endsWith('.txt'),
    ).length;
    mkdirSync(join(dir, 'sub'));
    for (let i = 0; i < count; i++) writeFileSync(join(dir, name(i)), `v1 ${i}`);
    const run = async () => {
      const { client, count: sent } = countingClient(server.baseUrl, server.demoKey);
      const h = makeEngine(client, { concurrency: 8 }, appDir);
      const scans: SyncEvents['folder-scanned'][] = [];
      h.engine.on('folder-scanned', (s) => scans.push(s));
      await h.engine.start();
      if (h.engine.listFolders().length === 0)
        expect((await h.engine.addFolder({ path: dir, bucket: 'marks' })).ok).toBe(true);
      const summary = await h.engine.waitUntilSettled();
      expect(summary.allDone).toBe(true);
      const ignored = h.engine.ignoredIn(h.engine.listFolders()[0]!.id);
      const all = h.db.prepare('SELECT name, state FROM sync_files').all() as {
        name: string;
        state: string;
      }[];
      const rows = new Map(all.map((r) => [r.name, r.state]));
      await h.release();
      return { scans, uploads: sent('POST', '/files'), ignored, rows };
    };
    try {
      writeFileSync(join(dir, '.DS_Store'), 'ignored');
      expect((await run()).uploads).toBe(sendable);
      // The first restart compares every row (its run wrote them) and leaves a mark; the next stops at it.
      const first = await run();
      expect(first.scans).toEqual([expect.objectContaining({ files: count, sameAsMark: false })]);
      expect(first.uploads).toBe(0);
      const second = await run();
      expect(second.scans).toEqual([expect.objectContaining({ files: count, sameAsMark: true })]);
      expect(second.uploads).toBe(0);
      // What the scan that made the mark ignored is still told.
      expect(second.ignored?.count).toBe(1);
      expect(second.ignored?.examples[0]?.path).toBe('.DS_Store');

      // While closed: one file rewritten at the same size, one removed, one added.
      writeFileSync(join(dir, 'f-0.txt'), 'v2 0');
      utimesSync(join(dir, 'f-0.txt'), new Date(), new Date(Date.now() + 5_000));
      unlinkSync(join(dir, name(1)));
      writeFileSync(join(dir, 'sub/new.txt'), 'new');
      const changed = await run();
      expect(changed.scans[0]).toMatchObject({ sameAsMark: false });
      expect(changed.uploads).toBe(2);
      const remote = await server.liveFiles('marks');
      const byName = new Map(remote.map((f) => [f.name, f]));
      expect(byName.get('f-0.txt')?.hash).toBe(md5Of(join(dir, 'f-0.txt')));
      expect(byName.has('sub/new.txt')).toBe(true);
      // Upload-only: the remote copy of a file deleted here stays; its row says it was deleted here.
      expect(changed.rows.get(name(1))).toBe('DELETED');
      expect(changed.rows.get('sub/new.txt')).toBe('LIVE');
      expect(remote).toHaveLength(sendable + 1);
      // And the next restart stops at the new mark that scan left... once a scan found nothing to do.
      expect((await run()).scans[0]).toMatchObject({ sameAsMark: false });
      expect((await run()).scans[0]).toMatchObject({ sameAsMark: true, files: count });
    } finally {
      rmSync(appDir, { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
      await server.stop();
    }
  }, 240_000);
});
