/**
 * `npm run bench:estimate` (issue 31): the one estimate of time left, against the time the work really
 * took. Each case syncs a folder with the real engine against the reference server on loopback and
 * records every `progress` event (the figure the Folders header shows: overview.etaSeconds is the last
 * one); at 10%, 50% and 90% of the work it compares the estimate shown with the time that was really
 * left (the error is relative to the time left, with a floor of 1 s). Target: within ±25% at 50%,
 * never hours off. A benchmark, not a test: it prints, it asserts
 * nothing but that every file went live. The machine's load is printed beside the figures.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { bandwidthOption } from '../../src-main/cli/commands/sync-bwlimit';
import {
  APP_MIGRATIONS,
  closePools,
  createFileApiClient,
  createRequestBudget,
  createSyncEngine,
  DEFAULT_FILE_API_PER_MINUTE,
} from '../../src-main/core/internal';
import { startReferenceServer } from '../../src-main/reference-server/server';
import { PROJECT_ROOT } from '../../src-main/shared-node/project-paths';
import { openDatabase } from '../../src-main/shared-node/sqlite';
import { writeRandomFile, writeSmallFiles } from './shared/fixtures';

const MiB = 1024 * 1024;

interface Case {
  name: string;
  /** What "done" counts: the bytes sent, or the files live. */
  measure: 'bytes' | 'files';
  make(dir: string): void;
  perMinute?: number;
  bwlimit?: string;
}

const CASES: Case[] = [
  {
    name: '190 MiB, one file',
    measure: 'bytes',
    make: (d) => writeRandomFile(join(d, 'video.mp4'), 190 * MiB),
  },
  { name: '17 small files', measure: 'files', make: (d) => writeSmallFiles(d, 17, 20_000) },
  {
    name: '300 small files at the request limit (120/min)',
    measure: 'files',
    make: (d) => writeSmallFiles(d, 300, 2_000),
    perMinute: 120,
  },
  {
    name: '8 MiB under a 1 MiB/s limit',
    measure: 'bytes',
    make: (d) => writeRandomFile(join(d, 'clip.mp4'), 8 * MiB),
    bwlimit: '1M',
  },
];

interface Sample {
  at: number;
  done: number;
  eta: number | null;
  bound: string | null;
}

async function runCase(c: Case, baseUrl: string, apiKey: string, root: string) {
  const dir = join(root, c.name.replace(/\W+/g, '-'));
  const src = join(dir, 'src');
  mkdirSync(src, { recursive: true });
  c.make(src);
  const db = openDatabase(join(dir, 'app.sqlite'), APP_MIGRATIONS);
  // A budget of its own per case (the shared one per address would carry the last case's window over).
  const budget = createRequestBudget({ perMinute: c.perMinute ?? DEFAULT_FILE_API_PER_MINUTE });
  const client = createFileApiClient({ baseUrl, apiKey, budget });
  const bw = bandwidthOption(c.bwlimit);
  if (!bw.ok) throw new Error(bw.error.message);
  const engine = createSyncEngine({ db, client, watch: false, ...(bw.value ? { bandwidth: bw.value } : {}) });
  const samples: Sample[] = [];
  engine.on('progress', (p) => {
    const done =
      c.measure === 'bytes'
        ? p.bytesSent / Math.max(1, p.bytesTotal)
        : p.filesDone / Math.max(1, p.filesTotal);
    samples.push({ at: performance.now(), done, eta: p.etaSeconds, bound: p.etaBound });
  });
  const t0 = performance.now();
  await engine.start();
  const added = await engine.addFolder({ path: src, bucket: 'estimate' });
  if (!added.ok) throw new Error(added.error.message);
  const summary = await engine.waitUntilSettled();
  const end = performance.now();
  await engine.stop();
  db.close();
  if (!summary.allDone) throw new Error(`${c.name}: not every file went live`);
  const at = (fraction: number) => {
    const s = samples.find((x) => x.done >= fraction && x.eta !== null);
    if (!s || s.eta === null) return null;
    const real = (end - s.at) / 1000;
    // Relative to the time really left, with a floor of a second: for work of a fraction of a second
    // the header says "under a second" either way, and a ratio of two tiny numbers says nothing.
    return { eta: s.eta, real, error: (s.eta - real) / Math.max(real, 1), bound: s.bound };
  };
  return { name: c.name, tookS: (end - t0) / 1000, points: [0.1, 0.5, 0.9].map((f) => ({ f, r: at(f) })) };
}

/**
 * `--screens [outDir]`: the same four cases through the app in Chromium, the header's figure read and
 * pictured at 10%, 50% and 90% (test/e2e/estimate-screens.ts, run as a script: the harness imports no test
 * code, and the app's shell and Chromium are the e2e stack's).
 */
function screens(outDir: string | undefined): Promise<number> {
  const tsx = join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx');
  const script = join(PROJECT_ROOT, 'test', 'e2e', 'estimate-screens.ts');
  const child = spawn(tsx, [script, ...(outDir ? [outDir] : [])], { stdio: 'inherit', cwd: PROJECT_ROOT });
  return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
}

export async function run(argv: string[] = []): Promise<number> {
  const at = argv.indexOf('--screens');
  if (at >= 0) return screens(argv[at + 1]);
  const root = mkdtempSync(join(tmpdir(), 'bench-estimate-'));
  const server = await startReferenceServer({ dataDir: join(root, 'server'), ratePerMinute: 0 });
  const apiKey = String(server.demo?.api_key ?? '');
  let worst50 = 0;
  try {
    console.log(
      `load before: ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );
    console.log('case | took | at 10%: shown / really left | at 50% | at 90%');
    for (const c of CASES) {
      const r = await runCase(c, server.baseUrl, apiKey, root);
      const cell = (p: (typeof r.points)[number]) =>
        p.r
          ? `${p.r.eta} s / ${p.r.real.toFixed(1)} s (${p.r.error >= 0 ? '+' : ''}${(p.r.error * 100).toFixed(0)}%, ${p.r.bound})`
          : 'no estimate';
      const mid = r.points[1]?.r;
      if (mid) worst50 = Math.max(worst50, Math.abs(mid.error));
      console.log(
        `${r.name} | ${r.tookS.toFixed(1)} s | ${r.points.map(cell).join(' | ')}  (load ${loadavg()[0]!.toFixed(2)})`,
      );
    }
    console.log(`worst at 50%: ${(worst50 * 100).toFixed(0)}% (target ±25%)`);
  } finally {
    await server.close();
    await closePools();
    rmSync(root, { recursive: true, force: true });
  }
  return 0;
}
