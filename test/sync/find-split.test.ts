import { execFileSync } from 'node:child_process';
import { mkdirSync, readSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ignoreRules } from '../../src-main/core/sync/local/ignore-rules';
import { type Listed, listTree } from '../../src-main/core/sync/local/list-tree';
import { type FindRun, SPLIT_FROM, startFind } from '../../src-main/shared-node/find-run.mjs';
import { tempDir } from './helpers';

/** Every byte a run wrote, its finds' outputs one after the other (as find-walk.ts reads them). */
async function outputOf(run: FindRun): Promise<Buffer> {
  await run.exited;
  const all: Buffer[] = [];
  for (const part of run.parts) {
    const buf = Buffer.alloc(4 * 1024 * 1024);
    let n = 0;
    for (let got = 1; got > 0; n += got) got = readSync(part.out, buf, n, buf.length - n, n);
    all.push(buf.subarray(0, n));
  }
  run.close();
  return Buffer.concat(all);
}

/** One find over the whole folder, as the walk ran before it was split. */
const oneFind = (root: string) =>
  execFileSync('find', [root, '-mindepth', '1', '-printf', '%y %i %s %T@ %P\\0'], { maxBuffer: 1 << 26 });

// A folder wide at its top is walked by two finds (find-run.mjs); the scan marks hold a digest of
// find's output, so the two must print what one find prints, byte for byte, in the same order.
describe.runIf(process.platform === 'linux')('the walk split between two finds', () => {
  const root = tempDir('find-split-');
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const awkward = ['-starts-with-dash', 'sp ace', 'new\nline', 'ünï', 'back\\slash', '.hidden'];
  for (let i = 0; i < SPLIT_FROM + 10; i++) {
    const name = i < awkward.length ? awkward[i]! : `d${i}`;
    mkdirSync(join(root, name));
    writeFileSync(join(root, name, `f${i}.txt`), 'x'.repeat(i));
    if (i % 7 === 0) mkdirSync(join(root, name, 'empty'));
  }
  writeFileSync(join(root, 'top-file.txt'), 'top');
  writeFileSync(join(root, '-top-dash.txt'), 'dash');
  symlinkSync('d10', join(root, 'link-to-d10'));

  it('prints exactly what one find prints', async () => {
    const run = startFind(root)!;
    expect(run.parts.length).toBe(2);
    const split = await outputOf(run);
    expect(split.toString('latin1')).toBe(oneFind(root).toString('latin1'));
  });

  it('is one find below SPLIT_FROM entries, or when asked for one', async () => {
    const run = startFind(root, { parts: 1 })!;
    expect(run.parts.length).toBe(1);
    expect((await outputOf(run)).equals(oneFind(root))).toBe(true);
    const small = tempDir('find-split-small-');
    try {
      writeFileSync(join(small, 'a.txt'), 'a');
      const one = startFind(small)!;
      expect(one.parts.length).toBe(1);
      expect((await outputOf(one)).equals(oneFind(small))).toBe(true);
    } finally {
      rmSync(small, { recursive: true, force: true });
    }
  });

  it('lists every file of the folder through the scan', async () => {
    const walk = listTree(root, ignoreRules(''), () => undefined, 100_000);
    const names: string[] = [];
    for await (const batch of walk.batches) names.push(...batch.map((l: Listed) => l.name));
    expect(walk.complete()).toBe(true);
    expect(names).toContain('new\nline/f2.txt');
    expect(names).toContain('-starts-with-dash/f0.txt');
    expect(names).toContain('-top-dash.txt');
    // All but the hidden folder's (left out by the built-in rules).
    expect(names.filter((n) => /\/f\d+\.txt$/.test(n))).toHaveLength(SPLIT_FROM + 9);
    expect(names.some((n) => n.startsWith('.hidden/'))).toBe(false);
  });
});
