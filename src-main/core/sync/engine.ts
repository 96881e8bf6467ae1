/**
 * The sync engine: watched folders become live CDN URLs, exactly once. The one entry point for the
 * CLI and the app; UI-agnostic (plain data in, plain data and events out).
 *
 *   const engine = createSyncEngine({ db, client });            // db: app database (APP_MIGRATIONS applied)
 *   engine.on('file', (e) => ...);                               // typed events, see events.ts
 *   await engine.start();                                        // settle the journal, scan, watch, upload
 *   await engine.addFolder({ path, bucket, mode: 'mirror' });    // Result<Folder>
 *   await engine.waitUntilSettled();                             // nothing pending (or stopped): a summary
 *   await engine.stop();
 *
 * Folders: addFolder / updateFolder / removeFolder / listFolders (with counts per state and in-sync).
 * Control: pause() / resume() for every folder, pause(id) / resume(id) for one; retry(fileId).
 * Reading: listFiles({ folderId, state, afterId, limit }) pages by id; activity({ beforeId, limit }).
 * Duplicates: findDuplicates() lists copies on the service; removeDuplicates(groups) deletes the extras.
 * Events: file (state changed), progress (files, bytes, speed, ETA), upload-progress (one file's bytes
 * sent), folder-in-sync, paused / resumed (account, 402), stopped (401 or account closed: build a new
 * engine with a new client), error, activity.
 *
 * Account: the rows belong to the account they were synced with (`service` + the client id of /me).
 * Started against another one (a reset sandbox, another base URL, another client's key), the engine
 * checks every synced row against the new account's listing before anything is sent
 * (account/account-change.ts).
 *
 * This file keeps the public surface and wires the rooms (engine/), which share one typed state
 * (engine/engine-state.ts): the scheduler (what runs next), progress bookkeeping (counts, speed, ETA,
 * in-sync), the account session (402 pause, /me polling, 401/403 stop, start-up confirmation), watch
 * batching (queued changes, rescans) and folder commands.
 *
 * The way of one file and the exactly-once argument: docs/sync-engine.md.
 */

import type { Account } from '../../../src-shared/api/file-hosting';
import { estimateTimeLeft } from '../../../src-shared/domain/time-left';
import { plural } from '../../../src-shared/domain/words';
import { type AppError, appError, err, ok, type Result } from '../../../src-shared/errors';
import type { Db } from '../../shared-node/sqlite';
import type { FileApiClient } from '../service/file-api-client';
import type { BudgetHold } from '../service/request-budget';
import { DEFAULT_OPTIONS, type SyncContext, type SyncOptions } from './context';
import { type DuplicateGroup, findDuplicates, removeDuplicates } from './duplicates';
import { createAccountSession } from './engine/account-session';
import { type Clock, createRateLimiter, realClock } from './engine/bandwidth';
import { createConnectivity, type Offline } from './engine/connectivity';
import { createEngineState, isHalted, type StopReason } from './engine/engine-state';
import { createFolderCommands } from './engine/folder-commands';
import { createFolderRunners } from './engine/folder-runners';
import { URGENT_PRIORITY } from './engine/priority';
import { createProgressBookkeeping } from './engine/progress-bookkeeping';
import { type BandwidthSetting, createBandwidthSchedule, type InForce } from './engine/schedule';
import { createScheduler } from './engine/scheduler';
import { stripUndefined } from './engine/strip-undefined';
import { type SyncEvents, syncEmitter } from './events';
import { createHasher, type Hasher } from './hash/hasher';
import { type IgnoredList, ignoredRegistry } from './local/ignored-files';
import { localSkipReason } from './local/local-checks';
import { accountStore } from './state/account-store';
import { type ActivityEntry, activityStore } from './state/activity-store';
import { type FileQuery, filesStore } from './state/files-store';
import { foldersStore } from './state/folders-store';
import { journalStore } from './state/journal-store';
import { scanMarksStore } from './state/scan-marks-store';
import { type FolderTally, isDone, isWaiting } from './state/transitions';
import { trashStore } from './state/trash-store';
import type { FileRow, FileState, Folder, FolderCounts, FolderMode, WatcherKind } from './types';
import { sendAgainGone, stopSyncing } from './upload/remote-gone';
import type { NativeSubscribe } from './watch/watch-folder';

export interface SyncEngineOptions extends Partial<SyncOptions> {
  db: Db;
  client: FileApiClient;
  /**
   * Names the service the client talks to, for the account the rows belong to (with /me's client id).
   * Default: the client's base URL. The embedded sandbox passes a name that outlives its port and
   * changes when it is reset (account/service-identity.ts).
   */
  service?: string;
  /** The md5 hasher (default: createHasher(hasherThreads)); tests inject one whose worker they kill. Closed by stop(). */
  hasher?: Hasher;
  /** Native watching (default @parcel/watcher's subscribe); tests inject one that fails like a full inotify table. */
  subscribeNative?: NativeSubscribe;
  now?: () => number;
  /** The upload limit and weekly schedule (default: none). */
  bandwidth?: BandwidthSetting;
  /**
   * The engine's clock: the schedule, the rate limiter, every room's timers and stop's grace follow it
   * (tests pass a fake one; `now` defaults to it then).
   */
  clock?: Clock;
  /** The last-resort log, for what cannot go to the activity log (its database failed). Default: standard error. */
  log?: (line: string) => void;
}

export interface FolderStatus extends Folder {
  counts: FolderCounts;
  /** Live, pending, failed for good, skipped: as every view counts them (state/transitions.ts). */
  tally: FolderTally;
  inSync: boolean;
  watching: 'native' | 'polling' | null;
}

export interface SettledSummary {
  counts: FolderCounts;
  /** Why the engine stopped, when it did (401, account closed). */
  stopped: StopReason | null;
  /** True when every file is LIVE, SKIPPED (with its reason) or DELETED. */
  allDone: boolean;
}

export interface SyncEngine {
  start(): Promise<void>;
  stop(): Promise<void>;
  addFolder(input: {
    path: string;
    bucket: string;
    mode?: FolderMode;
    ignore?: string;
    watcher?: WatcherKind;
    followOutsideLinks?: boolean;
  }): Promise<Result<Folder>>;
  updateFolder(
    id: number,
    patch: {
      bucket?: string;
      mode?: FolderMode;
      ignore?: string;
      watcher?: WatcherKind;
      followOutsideLinks?: boolean;
    },
  ): Promise<Result<Folder>>;
  removeFolder(id: number): Promise<Result<true>>;
  listFolders(): FolderStatus[];
  pause(folderId?: number): void;
  resume(folderId?: number): void;
  retry(fileId: number): Result<FileRow>;
  /** Puts a waiting file (NEW, QUEUED, PAUSED, FAILED) at the front of the queue ("Upload now"). */
  uploadNow(fileId: number): Result<FileRow>;
  /** The first waiting files (queued, then still to be checked) in the order they will be sent. */
  nextUp(limit: number): FileRow[];
  /** Sets the upload limit and schedule (takes effect for the next slice of every upload). */
  setBandwidth(setting: BandwidthSetting): void;
  /** The limit in force now, and until when. */
  bandwidth(): InForce;
  /**
   * What holds every request of the service's address now, until when (epoch ms on the engine's clock):
   * a 429's Retry-After kept by the request budget (its own, or the office's pause after one).
   */
  requestHold(): { kind: BudgetHold['kind']; until: number } | null;
  /**
   * Time left for one upload in flight, `bytesLeft` at its measured speed, by the one estimate
   * (time-left.ts) with the limit, the schedule's windows ahead: what each queue row says.
   */
  uploadTimeLeft(bytesLeft: number, bytesPerSecond: number): number | null;
  listFiles(q?: FileQuery): FileRow[];
  getFile(id: number): FileRow | null;
  findDuplicates(): Promise<Result<DuplicateGroup[]>>;
  /** What the last scan of a folder ignored: a count and the first examples with their rules. */
  ignoredIn(folderId: number): IgnoredList | null;
  removeDuplicates(groups: readonly DuplicateGroup[]): number;
  activity(q?: { beforeId?: number; limit?: number; folderId?: number }): ActivityEntry[];
  on<K extends keyof SyncEvents>(event: K, listener: (payload: SyncEvents[K]) => void): () => void;
  /**
   * A /me answer the app read (any view, any request): the engine's pause follows it, so a top-up seen
   * anywhere resumes uploads at once.
   */
  accountSeen(account: Account): void;
  /**
   * These remote copies are gone from the service (a delete seen by the app's client, a 410): the LIVE
   * rows on them are sent again (upload/remote-gone.ts), Activity saying why. Returns the rows moved.
   */
  remoteGone(remoteIds: readonly number[], where: string, chosen?: boolean): number;
  /** The Files view's "delete and stop syncing them": these LIVE rows leave the sync, files kept. */
  stopSyncing(fileIds: readonly number[]): number;
  /** Asks the service now whether it answers (offline) or allows uploads again (paused for money). */
  checkNow(): void;
  /** Resolves once nothing is pending (uploads paused by the account count as pending), or the engine stopped. */
  waitUntilSettled(): Promise<SettledSummary>;
  readonly state: {
    running: boolean;
    userPaused: boolean;
    /** The weekly schedule's pause window is in force. */
    schedulePaused: boolean;
    accountPaused: { code: string; message: string } | null;
    stopped: SettledSummary['stopped'];
    /** The service gives no answer: since when, why, and when it is asked next. */
    offline: Offline | null;
    /** Paused by the account: when /me is asked next (epoch ms). */
    nextAccountCheckAt: number | null;
  };
}

/** How long stop() waits for work already under way (an upload whose abort is not heard) before it lets go. */
export const STOP_GRACE_MS = 10_000;

export function createSyncEngine(opts: SyncEngineOptions): SyncEngine {
  const options: SyncOptions = { ...DEFAULT_OPTIONS, ...stripUndefined(opts) };
  const clock = opts.clock ?? realClock;
  const now = opts.now ?? (opts.clock ? () => clock.now() : Date.now);
  const { db, client } = opts;
  const report = opts.log ?? ((line: string) => process.stderr.write(`assets-sync: ${line}\n`));
  const events = syncEmitter((event, e) => listenerFailed(event, e));
  const files = filesStore(db, now);
  const folders = foldersStore(db, now);
  const journal = journalStore(db, now);
  const trash = trashStore(db, now);
  const activityLog = activityStore(db, now);
  const accounts = accountStore(db, now);
  const hasher = opts.hasher ?? createHasher(options.hasherThreads);
  const state = createEngineState();
  const limiter = createRateLimiter(clock);

  // The rooms below are built after the context; its calls into them run only once the engine runs.
  const ctx: SyncContext = {
    db,
    client,
    files,
    folders,
    journal,
    trash,
    activity: activityLog,
    accounts,
    hasher,
    marks: scanMarksStore(db),
    ignored: ignoredRegistry(),
    limiter,
    events,
    options,
    now,
    clock,
    report,
    rules: () => state.rules,
    transition(id, to, patch, expect) {
      const t = files.transition(id, to, patch, expect);
      if (!t) return null;
      book.fileChanged(t.row, t.from);
      return t.row;
    },
    insertNew(folderId, name, stat, notBefore) {
      const row = files.get(files.insertNew(folderId, name, stat, notBefore))!;
      book.fileChanged(row, null);
      return row;
    },
    log(kind, message, ref) {
      events.emit('activity', activityLog.add(kind, message, ref));
    },
    folder: (id) => folders.get(id),
    wake: () => scheduler.wake(),
    requestReconcile: () => scheduler.requestReconcile(),
    pauseForAccount: (e) => account.pauseForAccount(e),
    stopFor: (reaction, e) => account.stopFor(reaction, e),
    halted: () => isHalted(state),
  };

  /**
   * A listener of the engine's events threw: said with the event's name, in the activity log (written
   * without its event when an activity listener is the one failing, so it cannot loop) or, when that
   * fails too, in the last-resort log. The engine's own work is not the listener's: it goes on.
   */
  function listenerFailed(event: string, e: unknown) {
    const message = `A listener of the engine's "${event}" event failed: ${e instanceof Error ? e.message : String(e)}`;
    try {
      if (event === 'activity') activityLog.add('listener-failed', message);
      else ctx.log('listener-failed', message);
    } catch {
      report(message);
    }
  }

  const runners = createFolderRunners(ctx, {
    ...(opts.subscribeNative ? { subscribeNative: opts.subscribeNative } : {}),
    running: () => state.running,
  });
  const book = createProgressBookkeeping(state, {
    events,
    files,
    folders,
    trash,
    runners,
    now,
    onlyFolder: options.onlyFolder,
    limiter,
    requestsPerMinute: () => client.requestsPerMinute ?? 0,
    // The rooms below exist by the time the first progress is said (after start).
    scheduleAhead: () => schedule.ahead(),
    requestsHeldUntil: () => requestHold()?.until ?? null,
  });
  const scheduler = createScheduler(ctx, state, { book, runners });
  function requestHold() {
    const h = client.budgetHold?.();
    return h ? { kind: h.kind, until: now() + h.forMs } : null;
  }
  const schedule = createBandwidthSchedule(
    state,
    {
      limiter,
      clock,
      wake: () => scheduler.wake(),
      onChange: (f) => {
        events.emit('bandwidth', { ...f });
        // The time left reads the windows: said again at each edge (a pause starting, a limit changing).
        book.emitProgress(true);
      },
      onError: (e) =>
        report(`The upload schedule's edge failed: ${e instanceof Error ? e.message : String(e)}`),
    },
    opts.bandwidth,
  );
  const account = createAccountSession(ctx, state, {
    book,
    scheduler,
    service: opts.service ?? client.baseUrl,
  });
  const connectivity = createConnectivity(ctx, state, {
    runReconcile: () => scheduler.runReconcile(),
    onChange: () => events.emit('connectivity', { offline: state.offline !== null }),
  });
  // Every request the engine sends goes through this client, so every reply (or none) is seen.
  ctx.client = connectivity.observe(client);
  let keepAlive: NodeJS.Timeout | null = null;
  /** Unsubscribes from the client's 429 holds (while running). */
  let offHold: (() => void) | null = null;
  /** The stop under way or done (null while running): stop() asked again waits for the same one. */
  let stopping: Promise<void> | null = null;

  async function stopRooms() {
    state.running = false;
    if (keepAlive) clearInterval(keepAlive);
    keepAlive = null;
    offHold?.();
    offHold = null;
    // Every room stops its own timers and work. Uploads are aborted (their journal entries stay open:
    // the next start settles them by listing); a hash is answered HASHER-CLOSED (its row goes back to NEW).
    const rooms = Promise.allSettled([
      schedule.stop(),
      account.stop(),
      connectivity.stop(),
      runners.stop(),
      scheduler.stop(),
      hasher.close(),
    ]);
    // Work that does not hear its abort (a request stuck in the network) is let go after a grace
    // period on the engine's clock.
    const grace = new AbortController();
    await Promise.race([rooms, clock.sleep(STOP_GRACE_MS, grace.signal).catch(() => undefined)]);
    grace.abort();
    for (const w of state.settleWaiters.splice(0)) w();
  }

  const engine: SyncEngine = {
    async start() {
      if (state.running) return;
      state.running = true;
      stopping = null;
      runners.open();
      schedule.start();
      keepAlive = setInterval(() => undefined, 1 << 30);
      // A 429 held the budget: said at once (the app's holds, and the time left counts the wait).
      offHold =
        client.onBudgetHold?.(() => {
          const h = requestHold();
          if (!h) return;
          events.emit('request-hold', h);
          book.emitProgress(true);
        }) ?? null;
      // Work interrupted by a crash: a hash is simply redone; an upload is settled by the listing first.
      db.transaction(() => {
        for (const r of files.inState('HASHING', 1_000_000))
          ctx.transition(r.id, 'NEW', { notBefore: null }, ['HASHING']);
        for (const r of files.inState('UPLOADING', 1_000_000)) {
          if (!journal.openFor(r.id)) ctx.transition(r.id, 'QUEUED', {}, ['UPLOADING']);
        }
      })();
      // The scans are local work: they run while /me and the reconciliation wait on the network. Nothing
      // is hashed, sent or deleted before both are done (the scheduler waits for startingUp).
      state.startingUp = true;
      const run = folders.list().filter((f) => !ctx.options.onlyFolder || ctx.options.onlyFolder(f));
      const scans = Promise.all(run.map((f) => runners.get(f.id)?.scan()));
      // The CLI's run checks its folders' live rows against their buckets (options.checkBucketAtStart):
      // held from now, so neither sent nor called in sync, and checked once the account is confirmed.
      let mayCheck: (go: boolean) => void = () => undefined;
      const may = new Promise<boolean>((res) => {
        mayCheck = res;
      });
      const checks = ctx.options.checkBucketAtStart
        ? Promise.all(run.map((f) => runners.get(f.id)?.checkBucket(may)))
        : Promise.resolve();
      const opened = await account.openAccount(scans, false);
      if (opened === 'stopped') {
        state.startingUp = false;
        mayCheck(false);
        await Promise.all([scans, checks]);
        return;
      }
      if (opened === 'ready') await account.finishStartup();
      else account.confirmAccountLater(scans, 1);
      await scans;
      // Unconfirmed: the rows may be another account's, so a listing says nothing about them.
      mayCheck(opened === 'ready');
      await checks;
      // The folders are in sync (and say so) once scanned: the watcher's own walk of the tree
      // (@parcel/watcher, in its thread) comes after and does not delay that. Run side by side, the
      // two walks fought for the same cores and the scan took twice as long (docs/benchmarks.md).
      for (const f of run) await runners.get(f.id)?.startWatch();
      scheduler.wake();
    },

    stop() {
      stopping ??= stopRooms();
      return stopping;
    },

    ...createFolderCommands(ctx, state, { runners, scheduler }),

    uploadNow(fileId) {
      const row = files.get(fileId);
      if (!row || !isWaiting(row.state))
        return err(
          appError(
            'NOT-WAITING',
            row ? `${row.name} is ${row.state.toLowerCase()}, not waiting to upload.` : `No file ${fileId}.`,
          ),
        );
      files.setPriority(fileId, URGENT_PRIORITY + now());
      if (row.state === 'FAILED' && row.nextRetryAt !== null)
        ctx.transition(fileId, 'QUEUED', { nextRetryAt: null }, ['FAILED']);
      scheduler.wake();
      return ok(files.get(fileId)!);
    },
    nextUp: (limit) => {
      // Rows held for the account (PAUSED) are counted as waiting, so they are listed too.
      const queued = [...files.inState('QUEUED', limit), ...files.inState('PAUSED', limit)].slice(0, limit);
      if (queued.length >= limit) return queued;
      // A new row the local checks will skip (setup.exe, an empty file) is not "next to upload": the
      // Preview said it would be skipped, and so does the queue (issue 23).
      const fresh = files
        .inState('NEW', limit - queued.length + 50)
        .filter((r) => localSkipReason(r.name, r.size ?? 1, state.rules) === null);
      return [...queued, ...fresh.slice(0, limit - queued.length)];
    },
    setBandwidth: (s) => schedule.set(s),
    bandwidth: () => schedule.inForce(),
    requestHold,
    uploadTimeLeft(bytesLeft, bytesPerSecond) {
      const ahead = schedule.ahead();
      return estimateTimeLeft({
        now: now(),
        startedAt: null,
        bytesLeft,
        bytesInFlightLeft: bytesLeft,
        filesLeft: 1,
        filesInFlight: 1,
        filesDone: 0,
        bytesPerSecond,
        limitBytesPerSecond: limiter.rate(),
        requestsPerMinute: 0,
        pausedUntil: ahead.pausedUntil,
        windowsAhead: ahead.windows,
      }).seconds;
    },

    listFiles: (q = {}) => files.list(q),
    getFile: (id) => files.get(id),

    async findDuplicates() {
      const r = await findDuplicates(ctx);
      if (r.error) return err(appError(r.error.code, `Could not list the bucket: ${r.error.message}`));
      if (r.groups.length)
        ctx.log(
          'duplicates-found',
          `${plural(r.groups.length, 'file')} ${r.groups.length === 1 ? 'exists' : 'exist'} more than once on the service.`,
        );
      return ok(r.groups);
    },

    removeDuplicates: (groups) => removeDuplicates(ctx, groups),
    ignoredIn: (folderId) => ctx.ignored.get(folderId),
    activity: (q = {}) => activityLog.list(q),
    on: (event, listener) => events.on(event, listener),

    waitUntilSettled() {
      return new Promise<SettledSummary>((resolve) => {
        const done = () => {
          const counts = files.counts();
          resolve({
            counts,
            stopped: state.stopped,
            allDone:
              !state.stopped && Object.entries(counts).every(([s, n]) => n === 0 || isDone(s as FileState)),
          });
        };
        if (book.isSettled() || !state.running) done();
        else state.settleWaiters.push(done);
        scheduler.wake();
      });
    },

    checkNow() {
      connectivity.checkNow();
      account.checkNow();
    },

    accountSeen: (a) => account.accountSeen(a),
    remoteGone: (ids, where, chosen) =>
      sendAgainGone(ctx, ids, { at: now(), where, chosen: chosen === true }),
    stopSyncing: (ids) => stopSyncing(ctx, ids, now()),

    get state() {
      const { running, userPaused, schedulePaused, accountPaused, stopped, offline } = state;
      const nextAccountCheckAt = account.nextCheckAt();
      return {
        running,
        userPaused,
        schedulePaused,
        accountPaused,
        stopped,
        offline: offline && { ...offline },
        nextAccountCheckAt,
      };
    },
  };
  return engine;
}

export type { AppError, DuplicateGroup, FileRow, Folder, FolderCounts, SyncEvents };
