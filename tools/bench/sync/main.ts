import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { stopChildren } from '../shared/processes';
import { printReport } from '../shared/recorded';
import type { Row } from '../shared/table';
import { appServiceFigure } from './figures/app-service';
import { bigUploadFigure } from './figures/big-upload';
import { bwlimitFigure } from './figures/bwlimit';
import { dropFigure, officeDropFigure, watchDropFigure } from './figures/drop';
import { linkBigUploadFigure } from './figures/link-big-upload';
import { linkSmallFilesFigure } from './figures/link-small-files';
import { md5Figure } from './figures/md5';
import { rateLimitedFigure } from './figures/rate-limited';
import { restartFigure } from './figures/restart';
import { smallFilesFigure } from './figures/small-files';

const FIGURES: Record<string, (dir: string, opts: { files?: number }) => Promise<Row[]>> = {
  md5: (dir) => md5Figure(dir),
  'big-upload': (dir) => bigUploadFigure(dir),
  bwlimit: (dir) => bwlimitFigure(dir),
  'small-files': (dir) => smallFilesFigure(dir),
  'rate-limited': (dir) => rateLimitedFigure(dir),
  restart: (dir, o) => restartFigure(dir, o.files),
  'app-service': (dir, o) => appServiceFigure(dir, o.files),
  // Over a shaped link (200 Mbit/s, 20 ms each way): what a user on a real network feels.
  'link-big-upload': (dir) => linkBigUploadFigure(dir),
  'link-small-files': (dir) => linkSmallFilesFigure(dir),
  // A drop against the real limit (120 in any 60 s), by the CLI as a user runs it (issue 36).
  // The target (2x curl) is on 100 files. 20 files are mostly a process's start (/me 0.22 s after
  // spawn on a quiet machine) against curl's 0.20 s for all of them: 4.05x quiet, 1.22x at load 14. Shown
  // against 5x, so that a slower start still fails the row.
  'drop-20': (dir) => dropFigure(dir, 20, 5),
  'drop-100': (dir) => dropFigure(dir, 100, 2),
  'drop-240': (dir) => dropFigure(dir, 240, null),
  'drop-watch': (dir) => watchDropFigure(dir),
  'drop-office': (dir) => officeDropFigure(dir),
};

const USAGE = `npm run bench:sync [-- --only NAME[,NAME]] [--files N]
  Each figure of the sync engine against a baseline measured in the same run (docs/benchmarks.md).
  --only   run some figures: ${Object.keys(FIGURES).join(', ')}
  --files  files for the restart figure (default 100000) and the app-service figure (default 20000);
           fewer for a quick look, not for the record`;

/** `npm run bench:sync`: the sync engine's benchmarks (issue 4), a table of figures, exit 1 if one fails. */
export async function run(argv: string[]): Promise<number> {
  let values: { only?: string; files?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { only: { type: 'string' }, files: { type: 'string' }, help: { type: 'boolean' } },
    }));
  } catch (e) {
    console.error(`bench sync: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const names = values.only ? values.only.split(',').map((s) => s.trim()) : Object.keys(FIGURES);
  const unknown = names.filter((n) => !FIGURES[n]);
  if (unknown.length) {
    console.error(
      `bench sync: unknown figure ${unknown.join(', ')}; known: ${Object.keys(FIGURES).join(', ')}`,
    );
    return 2;
  }
  const files = values.files === undefined ? undefined : Number(values.files);
  if (files !== undefined && (!Number.isInteger(files) || files < 1)) {
    console.error('bench sync: --files takes a whole number of files');
    return 2;
  }

  const rows: Row[] = [];
  const onSignal = () => void stopChildren().finally(() => process.exit(130));
  process.once('SIGINT', onSignal);
  const started = performance.now();
  try {
    for (const name of names) {
      const dir = mkdtempSync(join(tmpdir(), `bench-sync-${name}-`));
      const t = performance.now();
      console.error(`bench sync: ${name}...`);
      try {
        // Each row with the load average at the end of its figure (one that measured a part of its run
        // under a known load, as the restart does, says so itself).
        const load = loadavg()[0]!;
        rows.push(
          ...(await FIGURES[name]!(dir, files === undefined ? {} : { files })).map((r) => ({
            ...r,
            load: r.load ?? load,
          })),
        );
      } catch (e) {
        rows.push({
          figure: name,
          measured: `error: ${e instanceof Error ? e.message : String(e)}`.slice(0, 200),
          baseline: '-',
          ratio: '-',
          target: '-',
          pass: false,
        });
      } finally {
        await stopChildren();
        rmSync(dir, { recursive: true, force: true });
      }
      console.error(`bench sync: ${name} done in ${((performance.now() - t) / 1000).toFixed(0)} s`);
    }
  } finally {
    process.off('SIGINT', onSignal);
  }
  printReport(
    'bench:sync',
    `sync engine benchmark (one run; each baseline measured in this run; ${((performance.now() - started) / 1000).toFixed(0)} s)`,
    rows,
  );
  return rows.every((r) => r.pass || r.skipped) ? 0 : 1;
}
