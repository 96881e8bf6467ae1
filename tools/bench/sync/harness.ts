import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { cliEntryArgs, RUNNING_FROM_BUNDLE } from '../../../src-main/launcher/cli-entry';
import { type BenchServer, REPO, runToEnd, startServer } from '../shared/processes';
import type { ChildInput, ChildReport } from './engine-child';
import { IN_SYNC_LINE } from './in-sync-line';

/**
 * Runs the engine once in a child process (engine-child.ts) and returns its report, its wall time and,
 * when a folder came in sync, the time from spawn() to that moment (process start, module loading,
 * database open and engine start included: what a user waits for, measured as find's time is).
 */
export async function runEngine(
  input: ChildInput,
): Promise<ChildReport & { wallMs: number; spawnToInSyncMs: number | null }> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      // BENCH_SYNC_PROFILE=DIR writes a CPU profile of each engine run there (chrome://inspect, speedscope).
      ...(process.env.BENCH_SYNC_PROFILE
        ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_SYNC_PROFILE]
        : []),
      // BENCH_ENGINE_CHILD=FILE runs another build's engine child (an out/cli/engine-child.mjs of
      // another checkout): a before/after of the same figure, the harness and baseline unchanged.
      // From the bundle, the child starts as the CLI does (engine-child-start.mjs: the folder's walk
      // first, the bundle's freshness checked).
      ...(process.env.BENCH_ENGINE_CHILD
        ? [process.env.BENCH_ENGINE_CHILD]
        : RUNNING_FROM_BUNDLE
          ? [join(import.meta.dirname, 'engine-child-start.mjs')]
          : cliEntryArgs('engine-child', join(import.meta.dirname, 'engine-child.ts'))),
      JSON.stringify(input),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'], cwd: REPO },
  );
  let spawnToInSyncMs: number | null = null;
  let head = '';
  child.stdout?.on('data', (d: Buffer) => {
    if (spawnToInSyncMs !== null || head.length > 4096) return;
    head += d.toString('utf8');
    if (head.includes(`${IN_SYNC_LINE}\n`)) spawnToInSyncMs = performance.now() - started;
  });
  const out = await runToEnd(child, 'the engine run');
  const wallMs = performance.now() - started;
  const line = out.trim().split('\n').pop() ?? '';
  if (!line.startsWith('{')) throw new Error(`the engine run printed no report: ${out.slice(-500)}`);
  return { ...(JSON.parse(line) as ChildReport), wallMs, spawnToInSyncMs };
}

/** The bucket the engine syncs into (curl's uploads go to another, so the two never meet). */
export const BENCH_BUCKET = 'bench';

/** Runs `measure` against a reference server process with its data in `dir`/server, stopped afterwards. */
export async function withServer<T>(
  dir: string,
  ratePerMinute: number,
  measure: (server: BenchServer) => Promise<T>,
): Promise<T> {
  const server = await startServer(join(dir, 'server'), ratePerMinute);
  try {
    return await measure(server);
  } finally {
    await server.stop();
  }
}

/**
 * An engine run syncing `folder` into the bench bucket (or `bucket`), with a new app data dir
 * `dir`/`app`. A figure that runs the engine more than once over the same files gives each run a
 * bucket of its own: a new folder adopts what is already live in its bucket (adopt-at-add.ts), and a
 * run that adopts uploads nothing.
 */
export function engineInput(
  server: BenchServer,
  dir: string,
  folder: string,
  options: { app?: string; perMinute?: number; bucket?: string } = {},
): ChildInput {
  const appDir = join(dir, options.app ?? 'app');
  mkdirSync(appDir);
  return {
    baseUrl: server.url,
    apiKey: server.apiKey,
    appDir,
    folder,
    bucket: options.bucket ?? BENCH_BUCKET,
    ...(options.perMinute === undefined ? {} : { perMinute: options.perMinute }),
  };
}

/** Throws unless the run settled with `count` files LIVE: a figure of a failed run would mean nothing. */
export function expectAllLive(report: ChildReport, count: number, run: string): void {
  if (!report.allDone || report.counts.LIVE !== count)
    throw new Error(`${run} left ${JSON.stringify(report.counts)}`);
}

/** Every request the client sent (its onRequest hook), retries included. */
export const requestsSent = (report: ChildReport) =>
  Object.values(report.requests).reduce((a, b) => a + b, 0);
