import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_MIGRATIONS } from '../../src-main/core/state/migrations';
import { displayName } from '../../src-main/core/sync/local/file-names';
import { ignoreRules } from '../../src-main/core/sync/local/ignore-rules';
import { listTree } from '../../src-main/core/sync/local/list-tree';
import type { FileRow } from '../../src-main/core/sync/types';
import { openDatabase } from '../../src-main/shared-node/sqlite';
import { runCli } from '../cli/run-cli';
import { makeEngine, type SyncTestServer, startServer, tempDir, testClient, until } from './helpers';

let server: SyncTestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

/** A path under `dir` whose last part is these bytes (Node takes a Buffer as a path as it is). */
const bytePath = (dir: string, ...parts: (string | number[])[]) =>
  Buffer.concat([
    Buffer.from(`${dir}/`),
    ...parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))),
  ]);

/** bad\xff\xfe.txt, caf\xe9.txt, a folder d\xe9j\xe0 with a file in it, an ignored x\xff.tmp, and ok.txt. */
function oddNames(dir: string): void {
  writeFileSync(join(dir, 'ok.txt'), 'fine');
  writeFileSync(bytePath(dir, 'bad', [0xff, 0xfe], '.txt'), 'bad');
  writeFileSync(bytePath(dir, 'caf', [0xe9], '.txt'), 'latin-1');
  mkdirSync(bytePath(dir, 'd', [0xe9], 'j', [0xe0]));
  writeFileSync(bytePath(dir, 'd', [0xe9], 'j', [0xe0], '/inside.txt'), 'inside');
  writeFileSync(bytePath(dir, 'x', [0xff], '.tmp'), 'ignored by the built-in rules');
}

const ODD = { 'bad‛FF‛FE.txt': 'NAME-NOT-UTF8', 'caf‛E9.txt': 'NAME-NOT-UTF8', 'd‛E9j‛E0': 'NAME-NOT-UTF8' };

describe('names that are not UTF-8 are named and skipped, never left out in silence', () => {
  it('display names escape each odd byte as rclone does (‛XX), and a ‛ of such a name as ‛‛', () => {
    expect(displayName(Buffer.from([0x62, 0x61, 0x64, 0xff, 0xfe, 0x2e, 0x74]))).toBe('bad‛FF‛FE.t');
    expect(displayName(Buffer.from('café.txt'))).toBe('café.txt');
    expect(displayName(Buffer.from('a‛b.txt'))).toBe('a‛b.txt');
    expect(displayName(Buffer.concat([Buffer.from('a‛'), Buffer.from([0xe9])]))).toBe('a‛‛‛E9');
    // A cut sequence, an overlong one, a surrogate and a byte over F4: each byte on its own.
    expect(displayName(Buffer.from([0xe2, 0x82, 0x2f]))).toBe('‛E2‛82/');
    expect(displayName(Buffer.from([0xc0, 0xaf]))).toBe('‛C0‛AF');
    expect(displayName(Buffer.from([0xed, 0xa0, 0x80]))).toBe('‛ED‛A0‛80');
    expect(displayName(Buffer.from([0xf5, 0x41, 0xf0, 0x9f, 0x98, 0x80]))).toBe('‛F5A😀');
  });

  it('both listers list each such file and folder as a skip, nothing under it, and find makes no mark of it', async () => {
    const dir = tempDir('names-list-');
    oddNames(dir);
    try {
      for (const [how, expected] of [
        ['walk', 0],
        ['find', Number.POSITIVE_INFINITY],
      ] as const) {
        const walk = listTree(dir, ignoreRules(), () => undefined, expected, undefined, undefined, {
          asked: 'names',
        });
        const seen: Record<string, string> = {};
        for await (const batch of walk.batches)
          for (const l of batch) seen[l.name] = l.seen.kind === 'skip' ? l.seen.code : l.seen.kind;
        expect(seen, how).toEqual({ 'ok.txt': 'file', ...ODD });
        expect(walk.complete(), how).toBe(true);
        // A mark stands for a walk whose every file the rows can be looked up by: not these.
        expect(walk.digest(), how).toBeNull();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the engine ends them SKIPPED NAME-NOT-UTF8 with a reason; a watched one too, and a deleted one ends', async () => {
    const dir = tempDir();
    oddNames(dir);
    const h = makeEngine(testClient(server.baseUrl, server.demoKey), { watch: true, stabilityMs: 100 });
    try {
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'names' })).ok).toBe(true);
      await h.engine.waitUntilSettled();
      const rows = () => new Map(h.engine.listFiles({ limit: 100 }).map((r: FileRow) => [r.name, r]));
      const first = rows();
      expect(first.get('ok.txt')?.state).toBe('LIVE');
      for (const [name, code] of Object.entries(ODD)) {
        expect([first.get(name)?.state, first.get(name)?.reasonCode], name).toEqual(['SKIPPED', code]);
        expect(first.get(name)?.reason, name).toMatch(/not valid UTF-8/);
      }
      expect(first.size).toBe(4);
      expect((await server.liveFiles('names')).map((f) => f.name)).toEqual(['ok.txt']);

      // Made while the app watches: the watcher's name opens nothing, so the folder is read again.
      writeFileSync(bytePath(dir, 'new', [0xe9], '.txt'), 'new');
      await until('the watched odd name', () => rows().get('new‛E9.txt')?.state === 'SKIPPED');
      unlinkSync(bytePath(dir, 'caf', [0xe9], '.txt'));
      await until('the deleted odd name', () => rows().get('caf‛E9.txt')?.state === 'DELETED');
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.runIf(process.platform === 'linux')(
    'a scan mark left by a version that dropped such a name in silence is not trusted after the upgrade',
    async () => {
      // find walks folders of 2,000 files or more, and only its walk leaves a mark. These are SKIPPED by
      // their extension: rows a restart compares, nothing sent.
      const dir = tempDir('names-mark-');
      const appDir = tempDir('names-mark-app-');
      for (let i = 0; i < 2_000; i++) writeFileSync(join(dir, `f-${i}.bin`), `${i}`);
      const run = async () => {
        const h = makeEngine(testClient(server.baseUrl, server.demoKey), {}, appDir);
        const scans: { sameAsMark?: boolean }[] = [];
        h.engine.on('folder-scanned', (e) => scans.push(e));
        await h.engine.start();
        if (h.engine.listFolders().length === 0)
          expect((await h.engine.addFolder({ path: dir, bucket: 'names-mark' })).ok).toBe(true);
        await h.engine.waitUntilSettled();
        const odd = h.db
          .prepare('SELECT state, reason_code AS reasonCode FROM sync_files WHERE name = ?')
          .get('caf‛E9.txt') as { state: string; reasonCode: string } | undefined;
        const folder = h.engine.listFolders()[0]!;
        const mark = h.db.prepare('SELECT gen, mark_gen, digest FROM sync_scan_marks').get() as {
          gen: number;
          mark_gen: number | null;
          digest: string | null;
        };
        await h.release();
        return { scans, odd, folder, mark };
      };
      try {
        await run();
        const clean = await run();
        expect(clean.mark.mark_gen).toBe(clean.mark.gen);
        // The name appears, and the mark is made again as the version before issue 22 made it: over
        // find's output, which holds the name, by a scan that left it out (its rows are as they were).
        writeFileSync(bytePath(dir, 'caf', [0xe9], '.txt'), 'latin-1');
        const f = clean.folder;
        const asked = JSON.stringify([f.path, f.bucket, f.ignore, f.mode, f.followOutsideLinks]);
        const found = execFileSync('find', [dir, '-mindepth', '1', '-printf', '%y %i %s %T@ %P\\0']);
        const v1 = createHash('sha1')
          .update('assets-sync scan mark 1')
          .update('\0')
          .update(asked)
          .update('\0')
          .update(found)
          .digest('hex');
        const db = openDatabase(join(appDir, 'app.sqlite'), APP_MIGRATIONS);
        db.prepare('UPDATE sync_scan_marks SET digest = ?').run(v1);
        db.close();
        const after = await run();
        expect(after.scans[0]).toMatchObject({ sameAsMark: false });
        expect([after.odd?.state, after.odd?.reasonCode]).toEqual(['SKIPPED', 'NAME-NOT-UTF8']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
        rmSync(appDir, { recursive: true, force: true });
      }
    },
    120_000,
  );

  it('sync --once exits 3, names each, and never says the folder is in sync', async () => {
    const dir = tempDir();
    const dataDir = tempDir('names-app-');
    oddNames(dir);
    try {
      const r = await runCli(
        ['sync', dir, '--once', '--bucket', 'names-cli', '--data-dir', dataDir, '--base-url', server.baseUrl],
        { ASSETS_API_KEY: server.demoKey, HOME: dataDir },
      );
      const [code, out] = [r.code, r.stdout + r.stderr];
      expect(code, out).toBe(3);
      for (const name of Object.keys(ODD)) expect(out).toContain(join(dir, name));
      expect(out).toContain('NAME-NOT-UTF8');
      expect(out).not.toMatch(/in sync/i);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
