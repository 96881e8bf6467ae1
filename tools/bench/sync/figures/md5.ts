import { join } from 'node:path';
import { createHasher } from '../../../../src-main/core/internal';
import { writeRandomFile } from '../../shared/fixtures';
import { timeCommand, timeShell } from '../../shared/processes';
import { fmtS, type Row } from '../../shared/table';

const SIZE = 1024 * 1024 * 1024;

/** md5 of a 1 GiB file, page cache warm: the engine's hasher (worker thread) against `md5sum`, best of 2. */
export async function md5Figure(dir: string): Promise<Row[]> {
  const file = join(dir, 'one-gib.bin');
  writeRandomFile(file, SIZE);
  const expected = (await timeShell(`md5sum ${file}`)).stdout.split(' ')[0];
  const hasher = createHasher(1);
  let ours = Number.POSITIVE_INFINITY;
  let theirs = Number.POSITIVE_INFINITY;
  try {
    for (let i = 0; i < 2; i++) {
      theirs = Math.min(theirs, await timeCommand('md5sum', [file]));
      const t = performance.now();
      const r = await hasher.md5(file);
      ours = Math.min(ours, performance.now() - t);
      if (!r.ok || r.value.md5 !== expected) throw new Error(`the hasher disagrees with md5sum on ${file}`);
    }
  } finally {
    await hasher.close();
  }
  const ratio = theirs / ours;
  return [
    {
      figure: 'md5 of 1 GiB: hasher throughput',
      measured: fmtS(ours),
      baseline: `md5sum ${fmtS(theirs)}`,
      ratio: `${ratio.toFixed(2)}x md5sum's`,
      target: '>= 0.90x',
      pass: ratio >= 0.9,
    },
  ];
}
