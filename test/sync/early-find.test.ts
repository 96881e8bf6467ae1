import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ignoreRules } from '../../src-main/core/sync/local/ignore-rules';
import { type Listed, listTree } from '../../src-main/core/sync/local/list-tree';
import { syncFolderOf } from '../../src-main/launcher/early-find.mjs';
import {
  dropEarlyFind,
  hasEarlyFind,
  startEarlyFind,
  takeEarlyFind,
} from '../../src-main/shared-node/find-run.mjs';
import { tempDir } from './helpers';

const EARLY = Symbol.for('assets-sync.early-find');
type Early = { run: { exited: Promise<unknown> }; startedAt: number };
const early = () => (globalThis as Record<symbol, Early | undefined>)[EARLY];

async function names(root: string, expected: number) {
  const walk = listTree(root, ignoreRules(''), () => undefined, expected);
  const all: Listed[] = [];
  for await (const batch of walk.batches) all.push(...batch);
  return all.map((l) => l.name).sort();
}

function tree(files: string[]) {
  const root = tempDir('early-find-');
  mkdirSync(join(root, 'sub'));
  for (const f of files) writeFileSync(join(root, f), f);
  return root;
}

// bin/assets-sync.mjs starts find's walk of `sync DIR`'s folder before the bundle loads
// (src-main/launcher/early-find.mjs); the folder's first scan takes it instead of starting its own.
describe.runIf(process.platform === 'linux')('the walk started as the process began', () => {
  const roots: string[] = [];
  afterEach(() => {
    dropEarlyFind();
    for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
  });

  it("is what the folder's first scan lists, even below the size that starts find, and only once", async () => {
    const root = tree(['a.txt', 'sub/b.txt']);
    roots.push(root);
    startEarlyFind(root);
    await early()!.run.exited;
    // Written after the early walk ended: that walk does not list it; a walk of the scan's own does.
    writeFileSync(join(root, 'later.txt'), 'later');
    expect(await names(root, 2)).toEqual(['a.txt', 'sub/b.txt']);
    expect(hasEarlyFind(root)).toBe(false);
    // The next scan walks anew (the watcher's gap-closing scan, folder-runner.ts).
    expect(await names(root, 2)).toEqual(['a.txt', 'later.txt', 'sub/b.txt']);
  });

  it("is left by another folder's scan, and stopped when dropped", async () => {
    const root = tree(['a.txt']);
    const other = tree(['x.txt']);
    roots.push(root, other);
    startEarlyFind(root);
    expect(await names(other, 1)).toEqual(['x.txt']);
    expect(hasEarlyFind(root)).toBe(true);
    const run = early()!.run;
    dropEarlyFind();
    expect(hasEarlyFind(root)).toBe(false);
    await run.exited;
    expect(takeEarlyFind(root)).toBeUndefined();
  });

  it('is not taken once older than EARLY_FIND_MAX_AGE_MS: the tree may have changed since', async () => {
    const root = tree(['a.txt']);
    roots.push(root);
    startEarlyFind(root);
    await early()!.run.exited;
    writeFileSync(join(root, 'later.txt'), 'later');
    early()!.startedAt -= 60_000;
    expect(await names(root, 1)).toEqual(['a.txt', 'later.txt']);
    expect(hasEarlyFind(root)).toBe(false);
  });
});

describe("the launcher's reading of `sync DIR`", () => {
  it('finds DIR among the options as the command does, resolved', () => {
    expect(syncFolderOf(['sync', 'photos'])).toBe(join(process.cwd(), 'photos'));
    expect(syncFolderOf(['sync', '--bucket', 'b', '/p', '--once', '--json'])).toBe('/p');
    expect(syncFolderOf(['sync', '--data-dir', '/d', '--bwlimit=2M', '/p', '--concurrency', '3'])).toBe('/p');
  });

  it('starts no walk for a dry run, --help, another command or a command line sync refuses', () => {
    expect(syncFolderOf(['sync', '--dry-run', '/p'])).toBeNull();
    expect(syncFolderOf(['sync', '-h', '/p'])).toBeNull();
    expect(syncFolderOf(['status', '/p'])).toBeNull();
    expect(syncFolderOf(['sync'])).toBeNull();
    expect(syncFolderOf(['sync', '/p', '/q'])).toBeNull();
  });
});
