import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileRow } from '../../src-main/core/sync/types';
import { unprivileged } from '../support/unprivileged';
import { makeEngine, type SyncTestServer, startServer, tempDir, testClient } from './helpers';

const root = join(import.meta.dirname, '..', '..');
let server: SyncTestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

const FINAL = ['LIVE', 'SKIPPED', 'DELETED'];

/**
 * Nested folders, each made relative to the last (as a shell's `cd` does), until the path of the file
 * at the bottom is over PATH_MAX (4096): the kernel refuses that path whole (ENAMETOOLONG).
 * Returns the relative path of the first folder whose own path is too long.
 */
function deepTree(dir: string): string {
  const part = 'd'.repeat(200);
  execFileSync('bash', [
    '-c',
    `cd "$1" && for i in $(seq 1 25); do mkdir ${part} && cd ${part}; done && echo deep > f.txt`,
    'bash',
    dir,
  ]);
  let rel = '';
  while (Buffer.byteLength(join(dir, rel)) < 4096) rel = rel ? `${rel}/${part}` : part;
  return rel;
}

/** GNU rm walks relative to each folder; Node's rmSync fails on paths over PATH_MAX. */
const removeTree = (dir: string) => execFileSync('rm', ['-rf', dir]);

/** Root ignores file modes: the runs that must meet EACCES go through `unprivileged()`'s prefix. */
const asUnprivileged = unprivileged();
if (asUnprivileged.skip)
  console.log(`test/sync/unreadable.test.ts: the EACCES cases are skipped: ${asUnprivileged.skip}`);

function run(
  args: string[],
  env: Record<string, string>,
  prefix: string[] = [],
): Promise<{ code: number | null; out: string; err: string }> {
  const [command, ...rest] = [...prefix, process.execPath, ...args];
  const child = spawn(command!, rest, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString();
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out, err })));
}

describe('what cannot be read is named, never silently missing', () => {
  it.skipIf(asUnprivileged.skip)(
    'both listers name a folder that refuses its reader (EACCES) and one whose path is too long',
    async () => {
      const dir = tempDir('unreadable-list-');
      mkdirSync(join(dir, 'ok'));
      writeFileSync(join(dir, 'ok', 'a.txt'), 'a');
      mkdirSync(join(dir, 'locked'));
      writeFileSync(join(dir, 'locked', 'b.txt'), 'b');
      chmodSync(join(dir, 'locked'), 0);
      const deep = deepTree(dir);
      const script = join(dir, 'list.mjs');
      writeFileSync(
        script,
        `const { listTree } = await import(${JSON.stringify(join(root, 'src-main/core/sync/local/list-tree.ts'))});
       const { ignoreRules } = await import(${JSON.stringify(join(root, 'src-main/core/sync/local/ignore-rules.ts'))});
       const out = {};
       for (const [how, expected] of [['walk', 0], ['find', Infinity]]) {
         const w = listTree(process.argv[2], ignoreRules(), () => undefined, expected);
         const seen = {};
         for await (const b of w.batches) for (const l of b) seen[l.name] = l.seen.kind === 'skip' ? l.seen.code : l.seen.kind;
         out[how] = { seen, complete: w.complete() };
       }
       console.log(JSON.stringify(out));`,
      );
      try {
        const r = await run(['--import', 'tsx', script, dir], { HOME: dir }, asUnprivileged.prefix);
        expect(r.code, r.err).toBe(0);
        const listed = JSON.parse(r.out) as Record<
          string,
          { seen: Record<string, string>; complete: boolean }
        >;
        for (const how of ['walk', 'find']) {
          const { seen, complete } = listed[how]!;
          expect(seen['ok/a.txt'], how).toBe('file');
          expect(seen.locked, how).toBe('UNREADABLE');
          expect(complete, how).toBe(false);
        }
        // The walk cannot enter the deep folder; find can, and lists what is below it, but both name the
        // folder once and nothing under it: `sync DIR` may list one folder either way (find started early by
        // the launcher, or the walk for a small folder), and says the same of it.
        for (const how of ['walk', 'find']) {
          expect(listed[how]!.seen[deep], how).toBe('NAME-TOO-LONG');
          expect(
            Object.keys(listed[how]!.seen).filter((n) => n.startsWith(`${deep}/`)),
            how,
          ).toEqual([]);
        }
      } finally {
        chmodSync(join(dir, 'locked'), 0o755);
        removeTree(dir);
      }
    },
  );

  it('the engine ends every path it found in a stated state', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'ok.txt'), 'fine');
    execFileSync('mkfifo', [join(dir, 'pipe.txt')]);
    symlinkSync('nowhere.txt', join(dir, 'dangling.txt'));
    const deep = deepTree(dir);
    const h = makeEngine(testClient(server.baseUrl, server.demoKey));
    try {
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'unreadable' })).ok).toBe(true);
      const summary = await h.engine.waitUntilSettled();
      const rows = new Map(h.engine.listFiles({ limit: 100 }).map((r: FileRow) => [r.name, r]));
      for (const r of rows.values()) expect(FINAL, r.name).toContain(r.state);
      expect(rows.get('ok.txt')?.state).toBe('LIVE');
      expect([rows.get('pipe.txt')?.state, rows.get('pipe.txt')?.reasonCode]).toEqual([
        'SKIPPED',
        'NOT-A-FILE',
      ]);
      expect(rows.get('dangling.txt')?.reasonCode).toBe('BROKEN-LINK');
      expect([rows.get(deep)?.state, rows.get(deep)?.reasonCode]).toEqual(['SKIPPED', 'NAME-TOO-LONG']);
      expect(rows.get(deep)?.reason).toContain('ENAMETOOLONG');
      expect(summary.allDone).toBe(true);

      // A path too long to open stays too long: it must not stop a rescan from seeing deletes elsewhere.
      unlinkSync(join(dir, 'ok.txt'));
      await h.engine.updateFolder(h.engine.listFolders()[0]!.id, { ignore: '' });
      await h.engine.waitUntilSettled();
      const after = new Map(h.engine.listFiles({ limit: 100 }).map((r: FileRow) => [r.name, r]));
      expect(after.get('ok.txt')?.state).toBe('DELETED');
      expect(after.get(deep)?.reasonCode).toBe('NAME-TOO-LONG');
    } finally {
      await h.close();
      removeTree(dir);
    }
  });

  const syncOnce = (dir: string, dataDir: string, json: boolean, prefix: string[] = []) =>
    run(
      [
        join(root, 'bin', 'assets-sync.mjs'),
        'sync',
        dir,
        '--once',
        ...(json ? ['--json'] : []),
        '--bucket',
        'unreadable-cli',
        '--data-dir',
        dataDir,
        '--base-url',
        server.baseUrl,
      ],
      { ASSETS_API_KEY: server.demoKey, HOME: dataDir },
      prefix,
    );

  it('sync --once exits 3 naming each path it could not read; links and pipes alone are no failure', async () => {
    const dir = tempDir();
    const dataDir = tempDir('unreadable-app-');
    writeFileSync(join(dir, 'ok.txt'), 'fine');
    execFileSync('mkfifo', [join(dir, 'pipe.txt')]);
    symlinkSync('nowhere.txt', join(dir, 'dangling.txt'));
    try {
      const clean = await syncOnce(dir, dataDir, false);
      expect(clean.code, clean.out + clean.err).toBe(0);

      const deep = deepTree(dir);
      const human = await syncOnce(dir, dataDir, false);
      expect(human.code, human.out + human.err).toBe(3);
      expect(human.out + human.err).toContain(`${join(dir, deep)}`);
      expect(human.out + human.err).toMatch(/could not be read/i);

      const json = await syncOnce(dir, dataDir, true);
      expect(json.code).toBe(3);
      const summary = json.out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((e) => e.event === 'summary')!;
      expect(summary.unreadable).toEqual([
        expect.objectContaining({ path: join(dir, deep), code: 'NAME-TOO-LONG' }),
      ]);
    } finally {
      removeTree(dir);
      removeTree(dataDir);
    }
  }, 60_000);

  it.skipIf(asUnprivileged.skip)(
    'sync --once, run by someone a folder refuses, exits 3 and names that folder',
    async () => {
      const dir = tempDir();
      const dataDir = tempDir('unreadable-app-');
      writeFileSync(join(dir, 'ok.txt'), 'fine');
      mkdirSync(join(dir, 'locked'));
      writeFileSync(join(dir, 'locked', 'inside.txt'), 'inside');
      chmodSync(join(dir, 'locked'), 0);
      try {
        const r = await syncOnce(dir, dataDir, false, asUnprivileged.prefix);
        expect(r.code, r.out + r.err).toBe(3);
        expect(r.out + r.err).toContain(join(dir, 'locked'));
        expect(r.out + r.err).toContain('UNREADABLE');
      } finally {
        chmodSync(join(dir, 'locked'), 0o755);
        removeTree(dir);
        removeTree(dataDir);
      }
    },
    60_000,
  );
});
