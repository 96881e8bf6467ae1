import { join } from 'node:path';
import type { CoreApi } from '../../../src-shared/contract';
import type { AppError, Result } from '../../../src-shared/errors';
import { openDataDir } from '../../shared-node/private-files';
import { newerSchema, openDatabase } from '../../shared-node/sqlite';
import { createRemoteIndex } from '../remote-index/remote-index';
import type { SecretStore } from '../secrets/keychain';
import { chooseSecretStore, fixedSecrets } from '../secrets/secret-stores';
import { serviceCache } from '../service/cache';
import { SANDBOX_CACHE_SOURCE } from '../service/connection';
import { remoteEventText } from '../service/file-api-client';
import { closePools } from '../service/http-pool';
import { serviceSettingsStore } from '../service/settings';
import { APP_MIGRATIONS } from '../state/migrations';
import { serviceIdentity } from '../sync/account/service-identity';
import { createAccountSnapshot } from './account-snapshot';
import { activityRecorder, slowDownPeriods } from './activity-record';
import type { AppContext } from './context';
import { createDispatcher, typedCall } from './dispatcher';
import { createEventBus } from './event-bus';
import { inBackground } from './in-background';
import { createRequestMeter } from './request-meter';
import type { Section } from './section';
import { accountSection } from './sections/account-section';
import { duplicatesSection } from './sections/duplicates-section';
import { filesSection } from './sections/files-section';
import { ignoredSection } from './sections/ignored-section';
import { EXTRA_SECTIONS, type SectionFactory } from './sections/index';
import { officeSection } from './sections/office-section';
import { remoteFilesSection } from './sections/remote-files-section';
import { secretsSection } from './sections/secrets-section';
import { sessionSection } from './sections/session-section';
import { settingsSection } from './sections/settings-section';
import { syncSection } from './sections/sync-section';
import { createServiceClock } from './service-clock';
import { createSessionHolder } from './session-holder';
import { createSettingsStore } from './settings-store';
import { createSyncRuntime, type EngineTunables } from './sync-runtime';

export interface AppServiceOptions {
  dataDir: string;
  secrets?: SecretStore;
  env?: NodeJS.ProcessEnv;
  /** `--base-url`. */
  baseUrl?: string;
  /** The sandbox's rate limit (tests). */
  sandboxRatePerMinute?: number;
  /** Engine waits (tests shorten them). */
  engine?: EngineTunables;
  /** How often the remote index reads the listing's new pages by itself (tests shorten it; 5 min). */
  indexRefreshEveryMs?: number;
  /**
   * This app is a desk of the office (docs/office.md): the shells say so; tests that build many app services
   * leave it out unless they test the office.
   */
  office?: boolean;
  /** Sections beyond the built-in and registered ones (tests). */
  sections?: SectionFactory[];
  log?: (line: string) => void;
}

/** How long this app's own uploads and deletes may wait to be written to the remote index together. */
const INDEX_BATCH_MS = 1000;

export interface AppStats {
  /** File events of the engine (every state change of a row, plus a new row). */
  fileTransitions: number;
  overviewComputations: number;
  /** The engine's folders (their tallies) read for the snapshots: one read per round that sends both. */
  folderListings: number;
  queueComputations: number;
  /** Uploads and deletes the remote index followed (one row write each), and its status events built. */
  indexWrites: number;
  /** The follower's transactions: one per batch of writes (INDEX_BATCH_MS), not one per upload. */
  indexCommits: number;
  indexStatusComputations: number;
  /** Listeners of the app's events that threw (logged once per event name, never rethrown). */
  listenerFailures: number;
}

/**
 * The core as one object: the contract's API (`call` typed by command: each reply's type comes from
 * the contract; `subscribe` to its events), plus `dispatch` for transports, and a clean close.
 */
export interface AppService extends CoreApi {
  /**
   * A command as it arrives over a transport (IPC, WebSocket): name and request unknown, both checked
   * against the contract before a handler runs; a refusal is an error value, never a throw.
   */
  dispatch(name: string, request: unknown): Promise<Result<unknown, AppError>>;
  readonly context: AppContext;
  /** Counters for benchmarks and tests: how often the sync snapshots were built. */
  stats(): AppStats;
  close(): Promise<void>;
}

export async function createAppService(o: AppServiceOptions): Promise<AppService> {
  // A database a later version migrated: refused (NewerDatabaseError, DATA-NEWER) before anything is touched.
  const newer = newerSchema(join(o.dataDir, 'app.sqlite'), APP_MIGRATIONS);
  if (newer) throw newer;
  const dataDir = openDataDir(o.dataDir, 'app.sqlite', true);
  if (!dataDir.ok) throw new Error(`${dataDir.error.code}: ${dataDir.error.message}`);
  const db = openDatabase(join(o.dataDir, 'app.sqlite'), APP_MIGRATIONS);
  const log = o.log ?? ((line: string) => process.stderr.write(`assets-sync: ${line}\n`));
  const bus = createEventBus({
    coalesce: ['sync.changed', 'sync.queue', 'files.index.changed', 'files.bulkDelete.changed'],
    coalesceMs: 250,
    // The index's status is a COUNT over the account's rows, and its count moves with every upload of
    // a sync: once a second is enough for the Files view (4 a second cost 1.7 s over 20,000 files).
    coalesceMsOf: { 'files.index.changed': 1000 },
    // Built together, they read the folders' tallies once (sync-runtime.ts).
    together: [['sync.changed', 'sync.queue']],
    onError: (name, e) =>
      log(`building the ${name} event failed: ${e instanceof Error ? e.message : String(e)}`),
    onListenerError: (name, e) =>
      log(
        `listener-failed: a listener of the "${name}" event failed (said once; each is counted): ${e instanceof Error ? e.message : String(e)}`,
      ),
  });
  // The keychain, or the encrypted file the person chose (secret-stores.ts); a store given by a test as is.
  const secrets = o.secrets ? fixedSecrets(o.secrets) : chooseSecretStore(o.dataDir, o.env ?? process.env);
  const settings = createSettingsStore(db);
  const serviceSettings = serviceSettingsStore(db);
  const meter = createRequestMeter();
  // Set once the Files view's section exists: it tells the view that the index changed.
  let indexTouched = () => {};
  let indexWrites = 0;
  let indexCommits = 0;
  const indexNotTaken = (what: string, e: unknown) =>
    log(
      `the remote index did not take ${what}; it is applied again with the next reply, or by the next refresh: ${e instanceof Error ? e.message : String(e)}`,
    );
  const cache = serviceCache(db);
  const account = createAccountSnapshot({ cache, bus });
  let slowDown: ReturnType<typeof slowDownPeriods> | null = null;
  const session = createSessionHolder({
    dataDir: o.dataDir,
    settings: serviceSettings,
    secrets,
    env: o.env ?? process.env,
    requestsPerMinute: () => settings.get().requestsPerMinute,
    onRequest: () => meter.record(),
    onReply: (status) => slowDown?.reply(status),
    // The engine's uploads and deletes, and the Files view's, reach the remote index at once.
    // Every /me answer becomes the app's one account snapshot.
    // Written in one commit per short batch (a sync of thousands of files paid a commit per upload);
    // the Files view is told once per commit, and any read of the index writes what waits first.
    onRemote: (c) => {
      const follow = createRemoteIndex(db).follower(serviceIdentity(c, o.dataDir), undefined, {
        everyMs: INDEX_BATCH_MS,
        onCommit: () => {
          indexCommits++;
          indexTouched();
        },
        onError: (events, e) => indexNotTaken(events.map(remoteEventText).join(', '), e),
      });
      const source = c.kind === 'sandbox' ? SANDBOX_CACHE_SOURCE : c.cacheSource;
      return (event) => {
        follow(event);
        if (event.kind !== 'account') indexWrites++;
        if (event.kind === 'account' && event.account) account.seen(source, event.account);
      };
    },
    onRemoteError: (event, e) => indexNotTaken(remoteEventText(event), e),
    ...(o.baseUrl ? { baseUrl: o.baseUrl } : {}),
    ...(o.sandboxRatePerMinute !== undefined ? { sandboxRatePerMinute: o.sandboxRatePerMinute } : {}),
  });
  const clock = createServiceClock({ onChange: (c) => bus.emit('clock.changed', c) });
  const ctx: AppContext = {
    dataDir: o.dataDir,
    db,
    secrets,
    env: o.env ?? process.env,
    bus,
    session,
    settings,
    serviceSettings,
    cache,
    account,
    clock,
    log,
    cacheSource: () => {
      const live = session.live;
      if (!live) return null;
      return live.connection.kind === 'sandbox' ? SANDBOX_CACHE_SOURCE : live.connection.cacheSource;
    },
  };
  // The service's 429s, one Activity line a period (issue 34).
  slowDown = slowDownPeriods(activityRecorder(ctx));
  const runtime = createSyncRuntime(ctx, meter, o.engine ?? {});
  // The engine follows the connection: a new account or a sandbox reset gets a new engine.
  session.onChange((live) => {
    clock.follow(live?.connection ?? null);
    inBackground(
      log,
      live ? 'Starting the sync engine for the new connection' : 'Stopping the sync engine',
      () => (live ? runtime.restart() : runtime.stop()),
    );
  });

  // Before the session is restored: the first client's budget is then the office's.
  const office = o.office ? officeSection(ctx) : null;
  const remoteFiles = remoteFilesSection(ctx, runtime, {
    ...(o.indexRefreshEveryMs !== undefined ? { refreshEveryMs: o.indexRefreshEveryMs } : {}),
    ...(office ? { watchFor: office.handle.watchFor } : {}),
  });
  indexTouched = remoteFiles.touched;
  const sections: Section[] = [
    sessionSection(ctx),
    accountSection(ctx),
    filesSection(ctx),
    remoteFiles,
    syncSection(ctx, runtime),
    duplicatesSection(runtime),
    ignoredSection(runtime),
    settingsSection(ctx, runtime),
    ...(office ? [office] : []),
    secretsSection(ctx, secrets),
  ];
  for (const make of [...EXTRA_SECTIONS, ...(o.sections ?? [])]) sections.push(await make(ctx));
  const dispatch = createDispatcher(sections, log);

  const restored = await session.restore();
  if (!restored.ok) log(`the saved connection could not be opened: ${restored.error.message}`);
  for (const s of sections) await s.start?.();

  let closed = false;
  return {
    call: typedCall(dispatch),
    dispatch,
    subscribe: bus.subscribe,
    context: ctx,
    stats: () => ({
      ...runtime.stats(),
      indexWrites,
      indexCommits,
      indexStatusComputations: remoteFiles.statusComputations(),
      listenerFailures: bus.listenerFailures,
    }),
    async close() {
      if (closed) return;
      closed = true;
      for (const s of [...sections].reverse()) await s.close?.();
      await runtime.stop();
      slowDown?.close();
      await session.close();
      // What the follower holds is written while the database is open.
      createRemoteIndex(db).flushFollowers();
      clock.close();
      bus.close();
      await closePools();
      db.close();
    },
  };
}
