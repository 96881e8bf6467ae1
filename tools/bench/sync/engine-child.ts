/**
 * One engine run in its own process, so that its peak RSS (VmHWM) is the engine's alone, not the
 * benchmark's or the server's. Run as `node out/cli/engine-child.mjs '<json ChildInput>'` (or through
 * tsx from the sources: harness.ts picks the way the benchmark itself runs); prints
 * one JSON line (ChildReport) on stdout and exits. The engine, database and client are built the way
 * the `sync` command builds them; only the request budget and the hooks that count requests differ.
 */
import { join } from 'node:path';
import { getHeapSpaceStatistics } from 'node:v8';
import { bandwidthOption } from '../../../src-main/cli/commands/sync-bwlimit';
import {
  APP_MIGRATIONS,
  budgetFor,
  closePools,
  createFileApiClient,
  createSyncEngine,
} from '../../../src-main/core/internal';
import { dropEarlyFind } from '../../../src-main/shared-node/find-run.mjs';
import { openDatabase } from '../../../src-main/shared-node/sqlite';
import { procStatusMb } from '../shared/proc-status';
import { IN_SYNC_LINE } from './in-sync-line';

export interface ChildInput {
  baseUrl: string;
  apiKey: string;
  /** The app's data dir (its SQLite file); reuse it for a run "after a restart". */
  appDir: string;
  folder: string;
  bucket: string;
  /** Client budget per minute: 0 when the server's limit is off; absent for the default. */
  perMinute?: number;
  /** After "in sync", keep watching this long, then report the RSS while watching. */
  watchMs?: number;
  /** Uploads at once; absent for the engine's default. */
  concurrency?: number;
  /** The upload limit, as `--bwlimit` takes it (2M); absent for none. */
  bwlimit?: string;
  /** Forget the folders' scan marks first, so the first scan compares every row (scan-marks-store.ts). */
  forgetMarks?: boolean;
}

export interface ChildReport {
  /** From engine.start() to every file settled (LIVE, SKIPPED...), in ms. */
  syncMs: number;
  /** CPU (ms, every thread of the process) over the same span as syncMs. */
  syncCpuMs: number;
  /** From engine.start() to the first folder-in-sync event, in ms. */
  inSyncMs: number | null;
  /** CPU time (user + system, every thread of this process; not find's) from its start to that event, in ms. */
  inSyncCpuMs: number | null;
  /** From engine.start() until it resolved (journal settled, folders scanned and watched), in ms. */
  startMs: number;
  /** From the process's start to main(): Node's own start and loading the modules, in ms. */
  loadMs: number;
  /** Opening the database and building the engine, in ms (before start()). */
  openMs: number;
  requests: Record<string, number>;
  replies: Record<string, number>;
  counts: Record<string, number>;
  allDone: boolean;
  vmHwmMb: number;
  /** Each whole scan, in order: the files it listed and whether it stopped at the mark. */
  scans: { files: number; sameAsMark: boolean }[];
  /** RSS after watching for watchMs (when asked). */
  watchRssMb: number | null;
  /** V8's view at the same moment (MB): where the RSS goes. */
  heap: { usedMb: number; totalMb: number; externalMb: number } | null;
}

async function main(): Promise<void> {
  const input = JSON.parse(process.argv[2] ?? '{}') as ChildInput;
  const requests: Record<string, number> = {};
  const replies: Record<string, number> = {};
  const t0 = performance.now();
  const db = openDatabase(join(input.appDir, 'app.sqlite'), APP_MIGRATIONS);
  if (input.forgetMarks) db.prepare('UPDATE sync_scan_marks SET digest = NULL').run();
  const budget =
    input.perMinute === undefined
      ? budgetFor(input.baseUrl, 'files')
      : budgetFor(input.baseUrl, 'files', { perMinute: input.perMinute });
  const client = createFileApiClient({
    baseUrl: input.baseUrl,
    apiKey: input.apiKey,
    budget,
    onRequest: (method, path) => {
      const k = `${method} ${path.replace(/\/\d+$/, '/:id')}`;
      requests[k] = (requests[k] ?? 0) + 1;
    },
    onReply: (_method, _path, status) => {
      replies[status] = (replies[status] ?? 0) + 1;
    },
  });
  const engine = createSyncEngine({
    db,
    client,
    watch: input.watchMs !== undefined,
    ...(input.concurrency === undefined ? {} : { concurrency: input.concurrency }),
    ...bandwidthFor(input.bwlimit),
  });
  const openMs = performance.now() - t0;

  const t1 = performance.now();
  const cpu1 = process.cpuUsage();
  // "In sync" as the engine reports it: the folder scanned and nothing left to do. The watcher may
  // still be walking the tree in its own thread then; start() resolves once it watches too.
  let inSyncMs: number | null = null;
  let inSyncCpuMs: number | null = null;
  const scans: ChildReport['scans'] = [];
  engine.on('folder-scanned', (s) => scans.push({ files: s.files, sameAsMark: s.sameAsMark }));
  engine.on('folder-in-sync', () => {
    if (inSyncMs !== null) return;
    inSyncMs = performance.now() - t1;
    const cpu = process.cpuUsage();
    inSyncCpuMs = (cpu.user + cpu.system) / 1000;
    // For the parent's clock (harness.ts): the time from its spawn() to here is what a user waits.
    process.stdout.write(`${IN_SYNC_LINE}\n`);
  });
  await engine.start();
  const startMs = performance.now() - t1;
  if (!engine.listFolders().some((f) => f.path === input.folder)) {
    const added = await engine.addFolder({ path: input.folder, bucket: input.bucket });
    if (!added.ok) throw new Error(`${added.error.code}: ${added.error.message}`);
  }
  // As the sync command does: the walk its launcher started (engine-child-start.mjs) was taken, or never will be.
  dropEarlyFind();
  const summary = await engine.waitUntilSettled();
  const syncMs = performance.now() - t1;
  const syncCpu = process.cpuUsage(cpu1);
  const syncCpuMs = (syncCpu.user + syncCpu.system) / 1000;

  let watchRssMb: number | null = null;
  let heap: ChildReport['heap'] = null;
  if (input.watchMs !== undefined) {
    await new Promise((r) => setTimeout(r, input.watchMs));
    watchRssMb = procStatusMb(process.pid, 'VmRSS');
    const m = process.memoryUsage();
    const mb = (n: number) => Math.round(n / 1024 / 1024);
    heap = { usedMb: mb(m.heapUsed), totalMb: mb(m.heapTotal), externalMb: mb(m.external) };
    // BENCH_SYNC_HEAP=1: where the heap's pages are (V8's spaces), on stderr, to see what an RSS holds.
    if (process.env.BENCH_SYNC_HEAP === '1') {
      const spaces = getHeapSpaceStatistics().map(
        (s) => `${s.space_name} ${mb(s.space_size)}/${mb(s.space_used_size)}`,
      );
      console.error(`engine-child: heap spaces (MB committed/used): ${spaces.join(', ')}`);
    }
  }
  await engine.stop();
  db.close();
  await closePools();
  const report: ChildReport = {
    syncMs,
    syncCpuMs,
    inSyncMs,
    inSyncCpuMs,
    startMs,
    loadMs: t0,
    openMs,
    requests,
    replies,
    scans,
    counts: summary.counts,
    allDone: summary.allDone,
    vmHwmMb: procStatusMb(process.pid, 'VmHWM'),
    watchRssMb,
    heap,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(`engine-child: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exit(1);
  },
);

function bandwidthFor(text: string | undefined) {
  const r = bandwidthOption(text);
  if (!r.ok) throw new Error(r.error.message);
  return r.value ? { bandwidth: r.value } : {};
}
