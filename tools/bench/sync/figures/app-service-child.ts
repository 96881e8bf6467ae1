/**
 * One sync of a folder in its own process, either through the app service (the core the UI uses:
 * event bus, snapshots, one subscriber that serializes every event as a transport would) or through
 * the bare engine built the way the `sync` command builds it. Prints one JSON line (AppChildReport)
 * with the process's own CPU time over the sync, so the two runs compare like with like.
 * Run as `node out/cli/app-service-child.mjs '<json AppChildInput>'` (cliEntryArgs picks the way).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createAppService } from '../../../../src-main/core';
import {
  APP_MIGRATIONS,
  budgetFor,
  closePools,
  createFileApiClient,
  createSyncEngine,
  type SecretStore,
} from '../../../../src-main/core/internal';
import { openDatabase } from '../../../../src-main/shared-node/sqlite';
import type { FolderView, SyncOverview } from '../../../../src-shared/contract';

export interface AppChildInput {
  mode: 'app' | 'engine';
  baseUrl: string;
  apiKey: string;
  appDir: string;
  folder: string;
  bucket: string;
  /** Files the folder holds: the run ends when every one is live. */
  count: number;
}

export interface AppChildReport {
  /** process.cpuUsage() from the folder added to every file live (user + system), in ms. */
  cpuMs: number;
  wallMs: number;
  live: number;
  /** File state changes the engine reported (a new row counts as one). */
  fileTransitions: number;
  /** App mode only: how often the sync overview was built, and the events the subscriber got. */
  overviewComputations: number | null;
  events: number | null;
  /** App mode only: the other work the app does beside the engine's, counted over the sync. */
  work: {
    queues: number;
    folderListings: number;
    indexWrites: number;
    indexCommits: number;
    indexStatuses: number;
  } | null;
}

/** The key comes from the environment (ASSETS_API_KEY): nothing is read from or written to a keychain. */
const noSecrets: SecretStore = { get: () => null, set: () => {}, delete: () => false };

function cpuMsSince(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}

async function viaApp(input: AppChildInput): Promise<AppChildReport> {
  const app = await createAppService({
    dataDir: input.appDir,
    secrets: noSecrets,
    env: { ASSETS_API_KEY: input.apiKey },
    baseUrl: input.baseUrl,
    log: (line) => process.stderr.write(`app-service-child: ${line}\n`),
  });
  // The server's limit is off: so is the client's budget (the settings cap it at the service's rate).
  budgetFor(input.baseUrl, 'files', { perMinute: 0 });
  let events = 0;
  let live = 0;
  let done: () => void = () => {};
  const settled = new Promise<void>((r) => {
    done = r;
  });
  // The one subscriber: what a shell does with each event (serialize it), and the end condition.
  app.subscribe((e) => {
    events++;
    JSON.stringify(e);
    if (e.event !== 'sync.changed') return;
    const f = (e.payload as SyncOverview).folders[0];
    if (!f) return;
    live = f.counts.live;
    if (live === input.count && f.counts.pending === 0) done();
  });
  const before = app.stats();
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const added = await app.call('sync.folders.add', {
    path: input.folder,
    bucket: input.bucket,
    mode: 'upload-only',
  });
  if (!added.ok) throw new Error(`${added.error.code}: ${added.error.message}`);
  if ((added.value as FolderView).counts.live === input.count) done();
  await settled;
  const cpuMs = cpuMsSince(cpu);
  const wallMs = performance.now() - t0;
  const after = app.stats();
  await app.close();
  return {
    cpuMs,
    wallMs,
    live,
    fileTransitions: after.fileTransitions - before.fileTransitions,
    overviewComputations: after.overviewComputations - before.overviewComputations,
    events,
    work: {
      queues: after.queueComputations - before.queueComputations,
      folderListings: after.folderListings - before.folderListings,
      indexWrites: after.indexWrites - before.indexWrites,
      indexCommits: after.indexCommits - before.indexCommits,
      indexStatuses: after.indexStatusComputations - before.indexStatusComputations,
    },
  };
}

async function viaEngine(input: AppChildInput): Promise<AppChildReport> {
  const db = openDatabase(join(input.appDir, 'app.sqlite'), APP_MIGRATIONS);
  const client = createFileApiClient({
    baseUrl: input.baseUrl,
    apiKey: input.apiKey,
    budget: budgetFor(input.baseUrl, 'files', { perMinute: 0 }),
  });
  // As `assets-sync sync DIR` builds it (watching, like the app's engine).
  const engine = createSyncEngine({ db, client, watch: true });
  let fileTransitions = 0;
  engine.on('file', () => {
    fileTransitions++;
  });
  await engine.start();
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const added = await engine.addFolder({ path: input.folder, bucket: input.bucket });
  if (!added.ok) throw new Error(`${added.error.code}: ${added.error.message}`);
  const summary = await engine.waitUntilSettled();
  const cpuMs = cpuMsSince(cpu);
  const wallMs = performance.now() - t0;
  await engine.stop();
  db.close();
  await closePools();
  return {
    cpuMs,
    wallMs,
    live: summary.counts.LIVE,
    fileTransitions,
    overviewComputations: null,
    events: null,
    work: null,
  };
}

async function main(): Promise<void> {
  const input = JSON.parse(process.argv[2] ?? '{}') as AppChildInput;
  mkdirSync(input.appDir, { recursive: true });
  const report = input.mode === 'app' ? await viaApp(input) : await viaEngine(input);
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(`app-service-child: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exit(1);
  },
);
