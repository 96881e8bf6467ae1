import { loadavg } from 'node:os';
import { join } from 'node:path';
import { writeSmallFiles } from '../../shared/fixtures';
import { timeCommand } from '../../shared/processes';
import { resetServed, served } from '../../shared/served';
import { fmtMb, fmtS, type Row } from '../../shared/table';
import { engineInput, expectAllLive, requestsSent, runEngine, withServer } from '../harness';

const FOLDERS = 2_000;
const WATCH_MS = 3_000;

/**
 * 100,000 unchanged files in 2,000 folders after a restart. Seeded by a first engine run (server and
 * client limits off); measured: the runs after it (with the folder's scan mark, and with it forgotten), each a new process over the same app database, from
 * the process's spawn() to the engine's folder-in-sync event (what a person waits for: Node's start,
 * loading the modules, opening the database, the scan), best of 3, against
 * `find DIR -type f -printf '%s %T@\n'` timed the same way (spawn to exit, output discarded), best of
 * 3, the two alternated, the page cache warm for both (the seeding run and a first find read the
 * tree). The time from engine.start() alone is shown too. No upload may be sent in any run; the RSS is
 * read after watching the tree for 3 s.
 */
export async function restartFigure(dir: string, count = 100_000): Promise<Row[]> {
  return withServer(dir, 0, async (server) => {
    const src = join(dir, 'src');
    writeSmallFiles(src, count, 64, Math.min(FOLDERS, count));
    const input = engineInput(server, dir, src, { perMinute: 0 });
    const seed = await runEngine(input);
    expectAllLive(seed, count, 'seeding');
    console.error(`  seeded ${count} files by a first engine run in ${fmtS(seed.syncMs)}`);

    const find = () => timeCommand('find', [src, '-type', 'f', '-printf', '%s %T@\\n']);
    await find(); // warms the cache for find's own output, as the seeding run did for the engine
    // The seeding run wrote every row, so the first restart compares them all and leaves the folder's
    // mark (scan-marks-store.ts); it is not measured. Then, alternated, best of 3 each: find; a restart
    // over the unchanged tree (stops at the mark: the usual restart); a restart with the marks forgotten
    // (compares every row: what the first restart after a change costs).
    let uploadsSent = 0;
    const restart = async (forgetMarks: boolean) => {
      await resetServed(server);
      const r = await runEngine({ ...input, watchMs: WATCH_MS, forgetMarks });
      // Any upload in any restart counts against the figure, not only in the fastest one; counted by
      // the server, not by the engine's own hook.
      uploadsSent += (await served(server)).requests;
      expectAllLive(r, count, 'a restart');
      const scan = r.scans[0];
      if (scan?.files !== count || scan.sameAsMark === forgetMarks)
        throw new Error(
          `the restart's first scan was not the one asked for: ${JSON.stringify(r.scans)} (forgetMarks ${forgetMarks})`,
        );
      return r;
    };
    await restart(true);
    type Run = Awaited<ReturnType<typeof restart>>;
    const faster = (a: Run | null, b: Run) =>
      !a || (b.spawnToInSyncMs ?? Infinity) < (a.spawnToInSyncMs ?? Infinity) ? b : a;
    let findMs = Number.POSITIVE_INFINITY;
    let marked: Run | null = null;
    let compared: Run | null = null;
    const loadBefore = loadavg()[0]!;
    for (let i = 0; i < 3; i++) {
      findMs = Math.min(findMs, await find());
      marked = faster(marked, await restart(false));
      compared = faster(compared, await restart(true));
    }
    if (!marked || !compared) throw new Error('no restart was measured');
    console.error(
      `  restart measured with a load average of ${loadBefore.toFixed(2)} then ${loadavg()[0]!.toFixed(2)} (1 min)`,
    );
    const label = `${count.toLocaleString('en')} unchanged files, restart`;
    const spawnRow = (r: Run, what: string, target: boolean): Row => {
      const spawnMs = r.spawnToInSyncMs ?? Number.NaN;
      const ratio = spawnMs / findMs;
      return {
        figure: `${label}${what}: process start to in sync`,
        measured: `${fmtS(spawnMs)} (modules loaded at ${fmtS(r.loadMs)}, CPU ${fmtS(r.inSyncCpuMs ?? Number.NaN)})`,
        baseline: `find ${fmtS(findMs)}`,
        ratio: `${ratio.toFixed(2)}x find's time`,
        target: target ? '<= 2.00x' : '-',
        pass: target ? ratio <= 2 : true,
      };
    };
    return [
      spawnRow(marked, '', true),
      spawnRow(compared, ', every row compared', false),
      {
        figure: `${label}: engine.start() to in sync`,
        measured: `${fmtS(marked.inSyncMs ?? Number.NaN)} (every row compared: ${fmtS(compared.inSyncMs ?? Number.NaN)})`,
        baseline: `find ${fmtS(findMs)}`,
        ratio: `${((marked.inSyncMs ?? Number.NaN) / findMs).toFixed(2)}x find's time`,
        target: '-',
        pass: true,
      },
      {
        figure: `${label}: upload requests`,
        measured: `${uploadsSent} received by the server (${requestsSent(marked)} requests in the fastest run)`,
        baseline: '-',
        ratio: '-',
        target: '0',
        pass: uploadsSent === 0,
      },
      {
        figure: `${label}: RSS while watching`,
        measured: `${fmtMb(marked.watchRssMb ?? Number.NaN)} (peak ${fmtMb(marked.vmHwmMb)}; every row compared: ${fmtMb(compared.watchRssMb ?? Number.NaN)})`,
        baseline: '-',
        ratio: '-',
        target: '< 150 MB',
        pass: Math.max(marked.watchRssMb ?? Infinity, compared.watchRssMb ?? Infinity) < 150,
      },
    ];
  });
}
