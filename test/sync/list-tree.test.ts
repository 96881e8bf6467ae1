import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ignoreRules } from '../../src-main/core/sync/local/ignore-rules';
import { inspectPathSync } from '../../src-main/core/sync/local/inspect';
import { type Listed, listTree } from '../../src-main/core/sync/local/list-tree';
import { tempDir } from './helpers';

async function collect(root: string, expected: number, patterns = '') {
  const unreadable: string[] = [];
  const walk = listTree(root, ignoreRules(patterns), (p, code) => unreadable.push(`${p} ${code}`), expected);
  const all: Listed[] = [];
  for await (const batch of walk.batches) all.push(...batch);
  all.sort((a, b) => (a.name < b.name ? -1 : 1));
  return { all, complete: walk.complete(), unreadable };
}

// The find lister (large trees, Linux) and the walk in this process must see exactly the same files,
// with the same size, mtime (to the ms, as Node computes it) and inode, or a restart would re-read files.
describe.runIf(process.platform === 'linux')('listing a tree: GNU find and the walk agree', () => {
  let root: string;
  beforeAll(() => {
    root = tempDir('list-tree-');
    mkdirSync(join(root, 'a/b/c'), { recursive: true });
    mkdirSync(join(root, '.hidden-dir'));
    mkdirSync(join(root, 'skipme'));
    writeFileSync(join(root, 'top.txt'), 'top');
    writeFileSync(join(root, 'a/b/c/deep.pdf'), 'deep');
    writeFileSync(join(root, 'a/with space and ünïcode.txt'), 'x');
    writeFileSync(join(root, 'a/line\nbreak.txt'), 'x');
    writeFileSync(join(root, '-dash.txt'), 'x');
    writeFileSync(join(root, '.hidden-dir/inside.txt'), 'x');
    writeFileSync(join(root, 'skipme/inside.txt'), 'x');
    writeFileSync(join(root, 'a/.dotfile'), 'x');
    writeFileSync(join(root, 'a/file.part'), 'x');
    writeFileSync(join(root, 'empty.txt'), '');
    symlinkSync(join(root, 'top.txt'), join(root, 'link-to-file.txt'));
    symlinkSync(join(root, 'nowhere'), join(root, 'broken.txt'));
    symlinkSync(join(root, 'a'), join(root, 'link-to-dir'));
    execFileSync('mkfifo', [join(root, 'pipe.txt')]);
    // Odd nanoseconds, where a careless conversion to ms would be off by one.
    execFileSync('touch', ['-d', '@1700000000.999999999', join(root, 'top.txt')]);
    execFileSync('touch', ['-d', '@1700000000.122999999', join(root, 'a/b/c/deep.pdf')]);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('lists the same files with the same stats, after the same ignore rules', async () => {
    const viaFind = await collect(root, Number.POSITIVE_INFINITY, 'skipme/');
    const viaWalk = await collect(root, 0, 'skipme/');
    expect(viaFind.complete).toBe(true);
    expect(viaWalk.complete).toBe(true);
    expect(viaFind.all).toEqual(viaWalk.all);
    const names = viaFind.all.map((l) => l.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'top.txt',
        'a/b/c/deep.pdf',
        'a/with space and ünïcode.txt',
        'a/line\nbreak.txt',
      ]),
    );
    for (const hidden of ['.hidden-dir/inside.txt', 'skipme/inside.txt', 'a/.dotfile', 'a/file.part'])
      expect(names).not.toContain(hidden);
    for (const l of viaFind.all) expect(l.seen).toEqual(inspectPathSync(join(root, l.name)));
    const kinds = Object.fromEntries(
      viaFind.all.map((l) => [l.name, l.seen.kind === 'skip' ? l.seen.code : l.seen.kind]),
    );
    expect(kinds).toMatchObject({
      'link-to-file.txt': 'file',
      'broken.txt': 'BROKEN-LINK',
      'link-to-dir': 'LINKED-FOLDER',
      'pipe.txt': 'NOT-A-FILE',
      'empty.txt': 'file',
    });
  });

  it('an unreadable root is reported and the walk is not complete (so nothing counts as deleted)', async () => {
    const gone = join(root, 'does-not-exist');
    const viaFind = await collect(gone, Number.POSITIVE_INFINITY);
    expect(viaFind.complete).toBe(false);
    expect(viaFind.unreadable.length).toBe(1);
    const viaWalk = await collect(gone, 0);
    expect(viaWalk.complete).toBe(false);
  });
});
