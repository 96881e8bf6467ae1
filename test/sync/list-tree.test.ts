import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ignoreRules } from '../../src-main/core/sync/local/ignore-rules';
import { inspectPathSync } from '../../src-main/core/sync/local/inspect';
import { type KnownFiles, type Listed, listTree } from '../../src-main/core/sync/local/list-tree';
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

  // A scan offers find's plain files to the folder's rows before anything is made of them
  // (KnownFiles): what is offered, and with what, must be what the slow way would have listed.
  it('offers each plain file the slow way would list, with the same stats, and lists the rest', async () => {
    const reference = await collect(root, Number.POSITIVE_INFINITY);
    const offered = new Map<string, { inode: number; size: number; mtimeMs: number }>();
    const known: KnownFiles = {
      take(path, start, end, inode, size, mtimeMs) {
        const name = path.toString('utf8', start, end);
        offered.set(name, { inode, size, mtimeMs });
        return name !== 'top.txt'; // one declined: it must then be listed as usual
      },
    };
    const walk = listTree(root, ignoreRules(''), () => undefined, Number.POSITIVE_INFINITY, undefined, known);
    const listed: Listed[] = [];
    for await (const batch of walk.batches) listed.push(...batch);
    expect(walk.complete()).toBe(true);
    // Taken or listed, every file once, and nothing the rules leave out.
    const names = [...listed.map((l) => l.name), ...[...offered.keys()].filter((n) => n !== 'top.txt')];
    expect(names.sort()).toEqual(reference.all.map((l) => l.name).sort());
    expect(listed.map((l) => l.name)).toContain('top.txt');
    for (const [name, stat] of offered)
      expect({ kind: 'file', ...stat }).toEqual(inspectPathSync(join(root, name)));
    for (const never of [
      '.hidden-dir/inside.txt',
      'a/.dotfile',
      'a/file.part',
      'link-to-file.txt',
      'pipe.txt',
    ])
      expect(offered.has(never)).toBe(false);
    expect(offered.has('a/with space and ünïcode.txt')).toBe(true);
    expect(offered.has('a/line\nbreak.txt')).toBe(true);
  });

  it('with patterns of a folder, nothing is offered (the rules need the whole path)', async () => {
    let offers = 0;
    const walk = listTree(
      root,
      ignoreRules('skipme/'),
      () => undefined,
      Number.POSITIVE_INFINITY,
      undefined,
      {
        take: () => {
          offers++;
          return true;
        },
      },
    );
    for await (const _ of walk.batches);
    expect(offers).toBe(0);
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
