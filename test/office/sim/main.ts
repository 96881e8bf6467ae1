import { parseArgs } from 'node:util';
import { SCENARIOS as BENCH_SCENARIOS, rowsOf } from '../../../tools/bench/office/rows';
import { type Row, renderTable } from '../../../tools/bench/shared/table';
import { installFakeClock } from './fake-clock';
import { type SimMeasured, simulate } from './world';

/**
 * `npm run sim:office [-- --row NAME[,NAME]] [--seeds N] [--files N] [--load X] [--json]`: bench:office's
 * rows on a fake clock (world.ts), judged by the benchmark's own rules (rowsOf). Seconds per row instead of
 * minutes, and the same figures on a quiet machine and a loaded one: for judging a change of the office's
 * algorithm before the real benchmark. Each seed is a different draw of start-ups and latencies. `--json`
 * prints one line per run (for scripts comparing two versions).
 */
/** The benchmark's rows but the stranger's: the simulated world has no stranger (strangers.test.ts does). */
const SCENARIOS = BENCH_SCENARIOS.filter((s) => !s.stranger);

const USAGE = `npm run sim:office -- [--row NAME[,NAME...]] [--seeds N] [--files N] [--load X] [--json]
  rows: ${SCENARIOS.map((s) => s.name).join(', ')} (default: all)`;

async function main(): Promise<number> {
  let values: {
    row?: string[];
    seeds?: string;
    files?: string;
    load?: string;
    json?: boolean;
    verbose?: boolean;
    trace?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args: process.argv.slice(2),
      options: {
        row: { type: 'string', multiple: true },
        seeds: { type: 'string' },
        files: { type: 'string' },
        load: { type: 'string' },
        json: { type: 'boolean' },
        verbose: { type: 'boolean', short: 'v' },
        trace: { type: 'boolean' },
      },
    }));
  } catch (e) {
    console.error(`sim office: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const seeds = Number(values.seeds ?? 3);
  const files = Number(values.files ?? 60);
  const load = Number(values.load ?? 1);
  if (!Number.isInteger(seeds) || seeds < 1 || !Number.isInteger(files) || files < 1 || !(load > 0)) {
    console.error(
      `sim office: --seeds and --files take whole numbers from 1, --load a positive number\n${USAGE}`,
    );
    return 2;
  }
  const names = (values.row ?? []).flatMap((r) => r.split(',')).filter(Boolean);
  const unknown = names.filter((n) => !SCENARIOS.some((s) => s.name === n));
  if (unknown.length > 0) {
    console.error(`sim office: no row ${unknown.join(', ')}\n${USAGE}`);
    return 2;
  }
  const chosen = names.length > 0 ? SCENARIOS.filter((s) => names.includes(s.name)) : SCENARIOS;
  const clock = installFakeClock(1_700_000_000_000, 1);
  const all: Row[] = [];
  let failed = 0;
  for (const s of chosen) {
    const runs: { seed: number; pass: boolean }[] = [];
    for (let seed = 1; seed <= seeds; seed++) {
      clock.reseed(seed);
      const m = await simulate(clock, s, {
        seed,
        files,
        load,
        ...(values.trace ? { trace: (l: string) => console.error(`${s.name}/${seed} ${l}`) } : {}),
      });
      const rows = rowsOf(s, m);
      const pass = rows.every((r) => r.pass || r.skipped);
      runs.push({ seed, pass });
      if (!pass) failed++;
      if (values.json) console.log(JSON.stringify({ row: s.name, seed, pass, m, rows }));
      else {
        if (values.verbose) console.error(`${s.name} seed ${seed}: ${JSON.stringify(m)}`);
        console.log(`${s.name.padEnd(13)} seed ${seed}: ${pass ? 'PASS' : 'FAIL'}  ${summary(m)}`);
        if (!pass)
          all.push(
            ...rows.filter((r) => !r.pass).map((r) => ({ ...r, figure: `${r.figure} [seed ${seed}]` })),
          );
      }
    }
    if (!values.json)
      console.error(`${s.name}: ${runs.filter((r) => r.pass).length} of ${runs.length} seeds pass`);
  }
  if (!values.json && all.length > 0) console.log(`\nWhat failed:\n${renderTable(all)}`);
  return failed === 0 ? 0 : 1;
}

/** One line of a run's figures: 429s (the desks' and the hidden consumer's), time vs floor, spread. */
function summary(m: SimMeasured): string {
  const x = (v: number) => `${v.toFixed(2)}x`;
  const hidden = m.hidden ? m.hidden.sent - m.hidden.refused : 0;
  const ready = m.readyMs.filter(Number.isFinite);
  return [
    `429s ${m.refused}/${m.admitted} (${((100 * m.refused) / m.admitted).toFixed(2)}%; desks ${m.desksRefused})`,
    `run ${x(m.runMs / m.floorMs)} of floor`,
    `after start-up ${x((m.runMs - Math.min(...ready)) / m.floorMs)}`,
    `spread ${x(m.lastDoneMs / m.firstDoneMs)}`,
    `desks ${(((m.admitted - hidden) * 60_000) / m.sendingMs).toFixed(1)}/min`,
    `on own ${m.onOwn}`,
    ...(m.recoveryMs !== undefined
      ? [`recovery ${m.recoveryMs === null ? 'never' : `${(m.recoveryMs / 1000).toFixed(1)} s`}`]
      : []),
  ].join(', ');
}

process.exitCode = await main();
