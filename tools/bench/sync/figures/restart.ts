import { spawn, spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { writeSmallFiles } from '../../shared/fixtures';
import { type BenchServer, timeCommand, track } from '../../shared/processes';
import { resetServed, served } from '../../shared/served';
import { fmtMb, fmtS, type Row } from '../../shared/table';
import type { ChildInput } from '../engine-child';
import { engineInput, expectAllLive, requestsSent, runEngine, withServer } from '../harness';

const FOLDERS = 2_000;
const WATCH_MS = 3_000;
/** The CPU hog of the second round: two workers, one per core of the machine the target was set on. */
const STRESS = ['stress-ng', '--cpu', '2', '--timeout', '900s', '--quiet'];

type Run = Awaited<ReturnType<typeof runEngine>>;

/**
 * 100,000 unchanged files in 2,000 folders after a restart. Seeded by a first engine run (server and
 * client limits off); measured: the runs after it (with the folder's scan mark, and with it forgotten),
 * each a new process over the same app database, from the process's spawn() to the engine's
 * folder-in-sync event (what a person waits for: Node's start, loading the modules, opening the
 * database, the scan), best of 3, against `find DIR -type f -printf '%s %T@\n'` timed the same way
 * (spawn to exit, output discarded), best of 3, the two alternated, the page cache warm for both (the
 * seeding run and a first find read the tree). Then the same beside `stress-ng --cpu 2` (the target
 * holds there too). The time from engine.start() alone is shown too. No upload may reach the server in
 * any run; the RSS is read after watching the tree for 3 s.
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
    let uploadsSent = 0;
    const restart = async (forgetMarks: boolean) => {
      const r = await restartOnce(server, input, forgetMarks, count);
      // Any upload in any restart counts against the figure, not only in the fastest one; counted by
      // the server, not by the engine's own hook.
      uploadsSent += r.uploads;
      return r.run;
    };
    // The seeding run wrote every row, so the first restart compares them all and leaves the folder's
    // mark (scan-marks-store.ts); it is not measured.
    await restart(true);

    const label = `${count.toLocaleString('en')} unchanged files, restart`;
    const quiet = await round(find, restart, true);
    const rows: Row[] = [
      spawnRow(quiet.marked, quiet.findMs, `${label}: process start to in sync`, quiet.load, true),
      spawnRow(
        quiet.compared,
        quiet.findMs,
        `${label}, every row compared: process start to in sync`,
        quiet.load,
        false,
      ),
      {
        figure: `${label}: engine.start() to in sync`,
        measured: `${fmtS(quiet.marked.inSyncMs ?? Number.NaN)} (every row compared: ${fmtS(quiet.compared.inSyncMs ?? Number.NaN)})`,
        baseline: `find ${fmtS(quiet.findMs)}`,
        ratio: `${((quiet.marked.inSyncMs ?? Number.NaN) / quiet.findMs).toFixed(2)}x find's time`,
        target: '-',
        pass: true,
        load: quiet.load,
      },
    ];

    const stressFigure = `${label} beside stress-ng --cpu 2: process start to in sync`;
    const hog = startStress();
    if (typeof hog === 'string') rows.push(skipped(stressFigure, hog));
    else {
      try {
        const stressed = await round(find, restart, false);
        rows.push(spawnRow(stressed.marked, stressed.findMs, stressFigure, stressed.load, true));
      } finally {
        await hog.stop();
      }
    }

    rows.push(
      {
        figure: `${label}: upload requests`,
        measured: `${uploadsSent} received by the server (${requestsSent(quiet.marked)} requests in the fastest run)`,
        baseline: '-',
        ratio: '-',
        target: '0',
        pass: uploadsSent === 0,
      },
      {
        figure: `${label}: RSS while watching`,
        measured: `${fmtMb(quiet.marked.watchRssMb ?? Number.NaN)} (peak ${fmtMb(quiet.marked.vmHwmMb)}; every row compared: ${fmtMb(quiet.compared.watchRssMb ?? Number.NaN)})`,
        baseline: '-',
        ratio: '-',
        target: '< 150 MB',
        pass: Math.max(quiet.marked.watchRssMb ?? Infinity, quiet.compared.watchRssMb ?? Infinity) < 150,
      },
    );
    return rows;
  });
}

/** One restart over the unchanged tree, its uploads counted by the server; throws unless its first scan was the one asked for. */
async function restartOnce(server: BenchServer, input: ChildInput, forgetMarks: boolean, count: number) {
  await resetServed(server);
  const run = await runEngine({ ...input, watchMs: WATCH_MS, forgetMarks });
  const uploads = (await served(server)).requests;
  expectAllLive(run, count, 'a restart');
  const scan = run.scans[0];
  if (scan?.files !== count || scan.sameAsMark === forgetMarks)
    throw new Error(
      `the restart's first scan was not the one asked for: ${JSON.stringify(run.scans)} (forgetMarks ${forgetMarks})`,
    );
  return { run, uploads };
}

/**
 * Best of 3, alternated: find; a restart over the unchanged tree (stops at the mark: the usual
 * restart); with `compare`, a restart with the marks forgotten (compares every row: what the first
 * restart after a change costs). The load average is read as the round ends.
 */
async function round(
  find: () => Promise<number>,
  restart: (forgetMarks: boolean) => Promise<Run>,
  compare: boolean,
) {
  const faster = (a: Run | null, b: Run) =>
    !a || (b.spawnToInSyncMs ?? Infinity) < (a.spawnToInSyncMs ?? Infinity) ? b : a;
  let findMs = Number.POSITIVE_INFINITY;
  let marked: Run | null = null;
  let compared: Run | null = null;
  for (let i = 0; i < 3; i++) {
    findMs = Math.min(findMs, await find());
    marked = faster(marked, await restart(false));
    if (compare) compared = faster(compared, await restart(true));
  }
  if (!marked || (compare && !compared)) throw new Error('no restart was measured');
  const load = loadavg()[0]!;
  console.error(`  restart round measured at a load average of ${load.toFixed(2)} (1 min)`);
  return { findMs, marked, compared: compared ?? marked, load };
}

function spawnRow(r: Run, findMs: number, figure: string, load: number, target: boolean): Row {
  const spawnMs = r.spawnToInSyncMs ?? Number.NaN;
  const ratio = spawnMs / findMs;
  return {
    figure,
    measured: `${fmtS(spawnMs)} (modules loaded at ${fmtS(r.loadMs)}, CPU ${fmtS(r.inSyncCpuMs ?? Number.NaN)})`,
    baseline: `find ${fmtS(findMs)}`,
    ratio: `${ratio.toFixed(2)}x find's time`,
    target: target ? '<= 2.00x' : '-',
    pass: target ? ratio <= 2 : true,
    load,
  };
}

function skipped(figure: string, why: string): Row {
  return {
    figure,
    measured: `skipped: ${why}`,
    baseline: '-',
    ratio: '-',
    target: '-',
    pass: true,
    skipped: true,
  };
}

/** `stress-ng --cpu 2` in the background (stopped by its pid), or why it cannot run here. */
function startStress(): { stop(): Promise<void> } | string {
  const probe = spawnSync(STRESS[0]!, ['--version'], { encoding: 'utf8' });
  if (probe.error) return 'stress-ng not found (apt-get install -y stress-ng)';
  const hog = track(spawn(STRESS[0]!, STRESS.slice(1), { stdio: 'ignore' }));
  return {
    async stop() {
      if (hog.exitCode !== null || hog.signalCode !== null) return;
      const gone = new Promise((r) => hog.once('exit', r));
      hog.kill('SIGTERM');
      await gone;
    },
  };
}
