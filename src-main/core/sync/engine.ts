/**
 * The sync engine: watched folders become live CDN URLs, exactly once. The one entry point for the
 * CLI and the app; UI-agnostic (plain data in, plain data and events out).
 *
 *   const engine = createSyncEngine({ db, client, dataDir });   // db: app database (APP_MIGRATIONS applied)
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
 * The way of one file and the exactly-once argument: docs/sync-engine.md.
 */
import { isAbsolute, resolve as resolvePath } from 'node:path';
import { isValidBucket } from '../../../src-shared/domain/bucket';
import { type AppError, appError, err, ok, type Result } from '../../../src-shared/errors';
import type { Db } from '../../shared-node/sqlite';
import type { FileApiClient } from '../service/file-api-client';
import { backoffDelayMs } from '../service/retry-policy';
import { moveToAccount } from './account/account-change';
import { DOCUMENTED_RULES, pauseReason, rulesFrom, uploadsAllowed } from './account/account-gate';
import { DEFAULT_OPTIONS, type SyncContext, type SyncOptions } from './context';
import { type DuplicateGroup, findDuplicates, removeDuplicates } from './duplicates';
import { type SyncEvents, syncEmitter } from './events';
import { createHasher } from './hash/hasher';
import { prepareFile } from './hash/prepare';
import { validatePatterns } from './local/ignore-rules';
import { inspectPath } from './local/inspect';
import type { UploadRules } from './local/local-checks';
import { fileEvent, localGone, observe } from './local/observe';
import { scanFolder } from './local/scanner';
import { etaSeconds, speedMeter } from './progress';
import { accountStore, sameAccount } from './state/account-store';
import { type ActivityEntry, activityStore } from './state/activity-store';
import { type FileQuery, filesStore } from './state/files-store';
import { type FolderInput, foldersStore } from './state/folders-store';
import { journalStore } from './state/journal-store';
import { trashStore } from './state/trash-store';
import type { FileRow, FileState, Folder, FolderCounts, FolderMode, WatcherKind } from './types';
import { runDeletes } from './upload/deleter';
import { reconcileJournal } from './upload/reconcile';
import { uploadOne } from './upload/upload-one';
import { type FolderWatch, type NativeSubscribe, type WatchChange, watchFolder } from './watch/watch-folder';

export interface SyncEngineOptions extends Partial<SyncOptions> {
  db: Db;
  client: FileApiClient;
  /** The app's data dir (reserved for engine files such as watcher snapshots). */
  dataDir: string;
  /**
   * Names the service the client talks to, for the account the rows belong to (with /me's client id).
   * Default: the client's base URL. The embedded sandbox passes a name that outlives its port and
   * changes when it is reset (account/service-identity.ts).
   */
  service?: string;
  /** Native watching (default @parcel/watcher's subscribe); tests inject one that fails like a full inotify table. */
  subscribeNative?: NativeSubscribe;
  now?: () => number;
}

export interface FolderStatus extends Folder {
  counts: FolderCounts;
  inSync: boolean;
  watching: 'native' | 'polling' | null;
}

export interface SettledSummary {
  counts: FolderCounts;
  /** Why the engine stopped, when it did (401, account closed). */
  stopped: { reaction: 'auth' | 'closed'; code: string; message: string } | null;
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
  listFiles(q?: FileQuery): FileRow[];
  getFile(id: number): FileRow | null;
  findDuplicates(): Promise<Result<DuplicateGroup[]>>;
  removeDuplicates(groups: readonly DuplicateGroup[]): number;
  activity(q?: { beforeId?: number; limit?: number; folderId?: number }): ActivityEntry[];
  on<K extends keyof SyncEvents>(event: K, listener: (payload: SyncEvents[K]) => void): () => void;
  /** Resolves once nothing is pending (uploads paused by the account count as pending), or the engine stopped. */
  waitUntilSettled(): Promise<SettledSummary>;
  readonly state: {
    running: boolean;
    userPaused: boolean;
    accountPaused: { code: string; message: string } | null;
    stopped: SettledSummary['stopped'];
  };
}

export function createSyncEngine(opts: SyncEngineOptions): SyncEngine {
  const options: SyncOptions = { ...DEFAULT_OPTIONS, ...stripUndefined(opts) };
  const now = opts.now ?? Date.now;
  const { db, client } = opts;
  const events = syncEmitter();
  const files = filesStore(db, now);
  const folders = foldersStore(db, now);
  const journal = journalStore(db, now);
  const trash = trashStore(db, now);
  const activityLog = activityStore(db, now);
  const accounts = accountStore(db, now);
  const service = opts.service ?? client.baseUrl;
  const hasher = createHasher(options.hasherThreads);

  let rules: UploadRules = DOCUMENTED_RULES;
  let running = false;
  let userPaused = false;
  let accountPaused: { code: string; message: string } | null = null;
  let stopped: SettledSummary['stopped'] = null;
  const preparing = new Set<number>();
  const uploading = new Map<
    number,
    { controller: AbortController; size: number; sent: number; shownAt: number }
  >();
  const watches = new Map<number, FolderWatch>();
  const scanning = new Set<number>();
  const rescanWanted = new Set<number>();
  let deleting = false;
  let reconciling = false;
  let reconcileTimer: NodeJS.Timeout | null = null;
  let reconcileFailures = 0;
  let pollTimer: NodeJS.Timeout | null = null;
  let confirmTimer: NodeJS.Timeout | null = null;
  let dueTimer: NodeJS.Timeout | null = null;
  let pumpQueued = false;
  /** Between start() and the end of its /me call and reconciliation: only scans may run. */
  let startingUp = false;
  // A running engine keeps its process alive: its waits (request budget, retries) may use unref'd timers.
  let keepAlive: NodeJS.Timeout | null = null;
  const settleWaiters: (() => void)[] = [];

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
    events,
    options,
    now,
    rules: () => rules,
    move(id, to, patch, expect) {
      const t = files.move(id, to, patch, expect);
      if (!t) return null;
      onFileEvent(fileEvent(t.row, t.from));
      return t.row;
    },
    log(kind, message, ref) {
      events.emit('activity', activityLog.add(kind, message, ref));
    },
    folder: (id) => folders.get(id),
    wake,
    requestReconcile,
    pauseForAccount,
    stopFor,
    halted: () => stopped !== null || !running,
  };

  // ---- progress and in-sync bookkeeping (this session's work only) ----
  const counted = new Map<number, number>();
  let filesDone = 0;
  let bytesDone = 0;
  const meter = speedMeter();
  let lastProgress = 0;
  const dirtyFolders = new Set<number>();
  const inSync = new Set<number>();

  function onFileEvent(e: SyncEvents['file']) {
    events.emit('file', e);
    inSync.delete(e.folderId);
    dirtyFolders.add(e.folderId);
    if (e.to === 'QUEUED' && !counted.has(e.fileId)) counted.set(e.fileId, files.get(e.fileId)?.size ?? 0);
    if (e.to === 'LIVE' && counted.has(e.fileId)) {
      filesDone++;
      bytesDone += counted.get(e.fileId) ?? 0;
      counted.delete(e.fileId);
      filesDone > 0 && emitProgress(true);
    } else if (
      (e.to === 'SKIPPED' || e.to === 'DELETED' || (e.to === 'FAILED' && e.nextRetryAt === null)) &&
      counted.has(e.fileId)
    ) {
      counted.delete(e.fileId);
    }
  }

  function emitProgress(force = false) {
    const t = now();
    if (!force && t - lastProgress < 250) return;
    lastProgress = t;
    let inflight = 0;
    for (const u of uploading.values()) inflight += u.sent;
    let pendingBytes = 0;
    for (const b of counted.values()) pendingBytes += b;
    const bps = meter.bytesPerSecond(t);
    events.emit('progress', {
      filesDone,
      filesTotal: filesDone + counted.size,
      bytesSent: bytesDone + inflight,
      bytesTotal: bytesDone + pendingBytes,
      bytesPerSecond: Math.round(bps),
      etaSeconds: etaSeconds(pendingBytes - inflight, bps),
    });
  }

  function checkInSync() {
    for (const id of dirtyFolders) {
      if (inSync.has(id) || scanning.has(id) || !folders.get(id)) continue;
      if (!files.hasPending(id)) {
        inSync.add(id);
        events.emit('folder-in-sync', { folderId: id });
      }
    }
    dirtyFolders.clear();
    if (settleWaiters.length && isSettled()) for (const w of settleWaiters.splice(0)) w();
  }

  function isSettled(): boolean {
    if (stopped) return true;
    // Still starting (or waiting for /me to say which account this is): nothing is known to be done.
    if (startingUp) return false;
    return (
      scanning.size === 0 &&
      preparing.size === 0 &&
      uploading.size === 0 &&
      !deleting &&
      !reconciling &&
      !files.hasPending() &&
      trash.count() === 0
    );
  }

  // ---- the scheduler: every step is driven from SQLite rows, so a restart resumes where it was ----
  function wake() {
    if (pumpQueued) return;
    pumpQueued = true;
    setImmediate(() => {
      pumpQueued = false;
      pump();
    });
  }

  function pump() {
    if (!running) return;
    if (stopped || startingUp) {
      checkInSync();
      return;
    }
    const t = now();
    const pausedFolders = folders
      .list()
      .filter((f) => f.paused || f.problem)
      .map((f) => f.id);
    if (!userPaused) {
      for (const r of files.dueRetries(50, t)) ctx.move(r.id, 'QUEUED', { nextRetryAt: null }, ['FAILED']);
      const hashSlots = options.hasherThreads * 2 - preparing.size;
      if (hashSlots > 0) {
        for (const row of files.inState('NEW', hashSlots + preparing.size, {
          dueBy: t,
          excludeFolders: pausedFolders,
        })) {
          if (preparing.size >= options.hasherThreads * 2) break;
          if (preparing.has(row.id)) continue;
          preparing.add(row.id);
          prepareFile(ctx, row)
            .catch((e) => internalError(row, e))
            .finally(() => {
              preparing.delete(row.id);
              wake();
            });
        }
      }
      if (!accountPaused) startUploads(t, pausedFolders);
      else if (files.inState('QUEUED', 1).length) {
        moveAll('QUEUED', 'PAUSED', { reasonCode: accountPaused.code, reason: accountPaused.message });
      }
    }
    if (!deleting) {
      deleting = true;
      runDeletes(ctx)
        .catch((e) => events.emit('error', { folderId: null, code: 'DELETE-FAILED', message: String(e) }))
        .finally(() => {
          deleting = false;
          if (trash.due(1).length || files.inState('DELETING', 1, { dueBy: now() }).length) wake();
          else checkInSync();
        });
    }
    scheduleDue();
    checkInSync();
  }

  function startUploads(t: number, pausedFolders: number[]) {
    const free = options.concurrency - uploading.size;
    if (free <= 0) return;
    // One slot is always kept for small files, so a queue of large files cannot hold them up.
    const large = [...uploading.values()].filter((u) => u.size > options.smallFileBytes).length;
    const largeAllowed = options.concurrency > 1 ? options.concurrency - 1 - large : 1 - large;
    const candidates = files.inState('QUEUED', free + options.concurrency, {
      dueBy: t,
      excludeFolders: pausedFolders,
    });
    let started = 0;
    let largeStarted = 0;
    for (const row of candidates) {
      if (started >= free) break;
      if (uploading.has(row.id)) continue;
      const isLarge = (row.size ?? 0) > options.smallFileBytes;
      if (isLarge && largeStarted >= largeAllowed) continue;
      if (isLarge) largeStarted++;
      started++;
      const slot = { controller: new AbortController(), size: row.size ?? 0, sent: 0, shownAt: 0 };
      uploading.set(row.id, slot);
      uploadOne(ctx, row, {
        signal: slot.controller.signal,
        onProgress: (sent) => {
          const at = now();
          meter.add(sent - slot.sent, at);
          slot.sent = sent;
          // Per file at most ten times a second, and always the last bytes.
          if (sent >= slot.size || at - slot.shownAt >= 100) {
            slot.shownAt = at;
            events.emit('upload-progress', {
              fileId: row.id,
              folderId: row.folderId,
              sentBytes: sent,
              totalBytes: slot.size,
            });
          }
          emitProgress();
        },
      })
        .catch((e) => internalError(row, e))
        .finally(() => {
          uploading.delete(row.id);
          wake();
        });
    }
  }

  function scheduleDue() {
    if (dueTimer) clearTimeout(dueTimer);
    dueTimer = null;
    const due = files.nextDue();
    if (due === null) return;
    dueTimer = setTimeout(wake, Math.max(20, Math.min(due - now(), 60_000)));
  }

  function internalError(row: FileRow, e: unknown) {
    // A bug must not wedge a row in a busy state: park it as FAILED with the message, visible to the user.
    const message = `Internal error while syncing ${row.name}: ${e instanceof Error ? e.message : String(e)}`;
    events.emit('error', { folderId: row.folderId, code: 'INTERNAL', message });
    const cur = files.get(row.id);
    if (cur && (cur.state === 'HASHING' || cur.state === 'NEW' || cur.state === 'QUEUED')) {
      ctx.move(row.id, 'FAILED', { reasonCode: 'INTERNAL', reason: message, nextRetryAt: null });
    }
  }

  // ---- journal reconciliation ----
  function requestReconcile(delay = options.reconcileDelayMs) {
    if (reconcileTimer || stopped) return;
    reconcileTimer = setTimeout(() => {
      reconcileTimer = null;
      void runReconcile();
    }, delay);
  }

  async function runReconcile(): Promise<void> {
    // Stopped (401, account closed): nothing more is sent; open intents are settled at the next start.
    if (stopped || !running) return;
    if (reconciling) {
      requestReconcile();
      return;
    }
    reconciling = true;
    try {
      const okAll = await reconcileJournal(ctx, new Set(uploading.keys()));
      reconcileFailures = okAll ? 0 : reconcileFailures + 1;
      if (!okAll && !stopped)
        requestReconcile(
          backoffDelayMs(reconcileFailures, { baseMs: options.backoff.baseMs, capMs: 60_000 }),
        );
    } finally {
      reconciling = false;
      wake();
    }
  }

  // ---- account: pause on 402, poll /me sparingly, resume unaided ----
  function pauseForAccount(e: { code: string; message: string }) {
    if (!accountPaused) {
      accountPaused = { code: e.code, message: e.message };
      ctx.log('paused', `Uploads paused: ${e.message}`);
      events.emit('paused', accountPaused);
    }
    moveAll('QUEUED', 'PAUSED', { reasonCode: e.code, reason: e.message });
    if (!pollTimer) pollTimer = setTimeout(pollAccount, options.pausePollMs);
  }

  async function pollAccount() {
    pollTimer = null;
    if (!running || stopped) return;
    const me = await client.me();
    if (me.ok) rules = rulesFrom(me.value);
    if (me.ok && uploadsAllowed(me.value)) {
      accountPaused = null;
      moveAll('PAUSED', 'QUEUED', { reasonCode: null, reason: null });
      ctx.log('resumed', 'Uploads resumed: the account allows uploads again.');
      events.emit('resumed', { reason: 'The account allows uploads again.' });
      wake();
      return;
    }
    if (!me.ok && (me.error.reaction === 'auth' || me.error.reaction === 'closed')) {
      stopFor(me.error.reaction, me.error);
      return;
    }
    if (me.ok) accountPaused = pauseReason(me.value);
    pollTimer = setTimeout(pollAccount, options.pausePollMs);
  }

  function moveAll(
    from: FileState,
    to: FileState,
    patch: { reasonCode: string | null; reason: string | null },
  ) {
    for (;;) {
      const rows = files.inState(from, 500);
      if (rows.length === 0) return;
      db.transaction(() => {
        for (const r of rows) ctx.move(r.id, to, patch, [from]);
      })();
    }
  }

  function stopFor(reaction: 'auth' | 'closed', e: { code: string; message: string }) {
    if (stopped) return;
    stopped = { reaction, code: e.code, message: e.message };
    const what =
      reaction === 'auth'
        ? `Syncing stopped: the API key was refused. Log in again with a valid key. (${e.code})`
        : `Syncing stopped: the account is closed. ${e.message}`;
    ctx.log('stopped', what);
    events.emit('stopped', stopped);
    for (const u of uploading.values()) u.controller.abort();
    checkInSync();
  }

  // ---- the account the rows belong to ----
  /**
   * Reads /me: the upload rules, whether uploads are allowed, and which account this is. Another account
   * than the rows were synced with: every synced row is checked against it first (moveToAccount).
   * 'unconfirmed': the service did not answer and the rows may belong to another account, so nothing
   * is sent or deleted until it does.
   */
  async function openAccount(
    scans: Promise<unknown>,
    quiet: boolean,
  ): Promise<'ready' | 'stopped' | 'unconfirmed'> {
    const me = await client.me();
    if (!running) return 'stopped';
    const known = accounts.get();
    if (!me.ok) {
      if (me.error.reaction === 'auth' || me.error.reaction === 'closed') {
        stopFor(me.error.reaction, me.error);
        return 'stopped';
      }
      // Same service as on record, or nothing synced yet: the rows cannot be mistaken for another account's.
      const provisional = known ? known.service === service : !files.hasRemotes();
      if (!quiet)
        ctx.log(
          'offline',
          provisional
            ? `The service could not be reached (${me.error.code}); using the documented upload rules for now.`
            : `The service could not be reached (${me.error.code}); nothing is sent until it confirms which account the synced files belong to.`,
        );
      return provisional ? 'ready' : 'unconfirmed';
    }
    rules = rulesFrom(me.value);
    const seen = { service, clientId: me.value.client.id };
    if (!sameAccount(known, seen)) {
      if (known === null && !files.hasRemotes()) accounts.set(seen);
      else {
        // What the scans found changed or deleted was seen against the old rows; the move settles it.
        await scans;
        if (!running) return 'stopped';
        moveToAccount(ctx, known, seen);
      }
    }
    if (!uploadsAllowed(me.value)) pauseForAccount(pauseReason(me.value));
    return 'ready';
  }

  /** Uploads and deletes may start: paused rows resume unless the account still refuses, the journal is settled. */
  async function finishStartup() {
    if (accountPaused === null) moveAll('PAUSED', 'QUEUED', { reasonCode: null, reason: null });
    await runReconcile();
    startingUp = false;
    wake();
  }

  function confirmAccountLater(scans: Promise<unknown>, attempt: number) {
    confirmTimer = setTimeout(
      async () => {
        confirmTimer = null;
        if (!running || stopped) return;
        const opened = await openAccount(scans, true);
        if (opened === 'ready') await finishStartup();
        else if (opened === 'unconfirmed') confirmAccountLater(scans, attempt + 1);
        else startingUp = false;
      },
      Math.min(60_000, backoffDelayMs(attempt, options.backoff)),
    );
  }

  // ---- watching ----
  const pendingChanges = new Map<number, Map<string, WatchChange['kind']>>();
  const changeTimers = new Map<number, NodeJS.Timeout>();

  async function startWatch(folder: Folder) {
    if (!options.watch || watches.has(folder.id) || !running) return;
    try {
      const w = await watchFolder(
        folder,
        {
          onChanges: (changes) => queueChanges(folder.id, changes),
          onRescan: (reason) => {
            ctx.log('rescan', `Scanning ${folder.path} again (${reason}).`, { folderId: folder.id });
            void rescan(folder.id);
          },
        },
        (message) => {
          ctx.log('watch-fallback', message, { folderId: folder.id });
          events.emit('error', { folderId: folder.id, code: 'WATCH-FALLBACK', message });
        },
        {
          pollIntervalMs: options.pollIntervalMs,
          ...(opts.subscribeNative ? { subscribe: opts.subscribeNative } : {}),
        },
      );
      if (!running || !folders.get(folder.id)) await w.close();
      else {
        watches.set(folder.id, w);
        // The watcher starts after a scan, and what changed between the two reached neither: one more
        // scan closes the gap (unchanged files cost a stat and no write, so it is cheap).
        void rescan(folder.id);
      }
    } catch (e) {
      events.emit('error', {
        folderId: folder.id,
        code: 'WATCH-FAILED',
        message: `Could not watch ${folder.path}: ${String(e)}`,
      });
    }
  }

  function queueChanges(folderId: number, changes: WatchChange[]) {
    const map = pendingChanges.get(folderId) ?? new Map();
    for (const c of changes) map.set(c.name, c.kind);
    pendingChanges.set(folderId, map);
    if (!changeTimers.has(folderId)) {
      changeTimers.set(
        folderId,
        setTimeout(() => {
          changeTimers.delete(folderId);
          void applyChanges(folderId);
        }, 100),
      );
    }
  }

  async function applyChanges(folderId: number) {
    const folder = folders.get(folderId);
    const map = pendingChanges.get(folderId);
    pendingChanges.delete(folderId);
    if (!folder || !map) return;
    const { ignoreRules } = await import('./local/ignore-rules');
    const ignored = ignoreRules(folder.ignore);
    const seen: { name: string; insp: Awaited<ReturnType<typeof inspectPath>> }[] = [];
    let needScan = false;
    for (const [name, kind] of map) {
      if (
        ignored(name) ||
        name
          .split('/')
          .some((_part, i, all) => i < all.length - 1 && ignored(all.slice(0, i + 1).join('/'), true))
      )
        continue;
      const insp = await inspectPath(`${folder.path}/${name}`, folder);
      if (insp.kind === 'dir') needScan = true;
      else seen.push({ name, insp });
      if (kind === 'delete' || insp.kind === 'gone') {
        for (const r of files.underPath(folderId, name)) {
          if (r.name !== name && (await inspectPath(`${folder.path}/${r.name}`)).kind === 'gone')
            localGone(ctx, folder, r);
        }
      }
    }
    db.transaction(() => {
      for (const s of seen) observe(ctx, folder, s.name, s.insp);
    })();
    if (needScan) void rescan(folderId);
    wake();
  }

  async function rescan(folderId: number) {
    if (scanning.has(folderId)) {
      rescanWanted.add(folderId);
      return;
    }
    const folder = folders.get(folderId);
    if (!folder) return;
    scanning.add(folderId);
    try {
      await scanFolder(ctx, folder);
    } catch (e) {
      events.emit('error', {
        folderId,
        code: 'SCAN-FAILED',
        message: `Scanning ${folder.path} failed: ${String(e)}`,
      });
    } finally {
      scanning.delete(folderId);
      dirtyFolders.add(folderId);
      if (rescanWanted.delete(folderId)) void rescan(folderId);
      wake();
    }
  }

  // ---- the public surface ----
  const engine: SyncEngine = {
    async start() {
      if (running) return;
      running = true;
      keepAlive = setInterval(() => undefined, 1 << 30);
      // Work interrupted by a crash: a hash is simply redone; an upload is settled by the listing first.
      db.transaction(() => {
        for (const r of files.inState('HASHING', 1_000_000))
          ctx.move(r.id, 'NEW', { notBefore: null }, ['HASHING']);
        for (const r of files.inState('UPLOADING', 1_000_000)) {
          if (!journal.openFor(r.id)) ctx.move(r.id, 'QUEUED', {}, ['UPLOADING']);
        }
      })();
      // The scans are local work: they run while /me and the reconciliation wait on the network. Nothing
      // is hashed, sent or deleted before both are done (pump() waits for startingUp).
      startingUp = true;
      const scans = Promise.all(folders.list().map((f) => rescan(f.id)));
      const opened = await openAccount(scans, false);
      if (opened === 'stopped') {
        startingUp = false;
        await scans;
        return;
      }
      if (opened === 'ready') await finishStartup();
      else confirmAccountLater(scans, 1);
      await scans;
      // The folders are in sync (and say so) once scanned: the watcher's own walk of the tree
      // (@parcel/watcher, in its thread) comes after and does not delay that. Run side by side, the
      // two walks fought for the same cores and the scan took twice as long (docs/benchmarks.md).
      for (const f of folders.list()) await startWatch(f);
      wake();
    },

    async stop() {
      running = false;
      if (keepAlive) clearInterval(keepAlive);
      keepAlive = null;
      for (const u of uploading.values()) u.controller.abort();
      for (const t of [reconcileTimer, pollTimer, dueTimer, confirmTimer, ...changeTimers.values()])
        if (t) clearTimeout(t);
      reconcileTimer = pollTimer = dueTimer = confirmTimer = null;
      changeTimers.clear();
      await Promise.all([...watches.values()].map((w) => w.close().catch(() => undefined)));
      watches.clear();
      // Aborted uploads leave their journal entries open: the next start settles them by listing.
      const deadline = Date.now() + 10_000;
      while ((uploading.size || preparing.size || deleting || reconciling) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
      }
      await hasher.close();
      for (const w of settleWaiters.splice(0)) w();
    },

    async addFolder(input) {
      const path = resolvePath(input.path);
      if (!isAbsolute(input.path) && input.path.trim() === '')
        return err(appError('FOLDER-INVALID', 'A folder path is required.'));
      const insp = await inspectPath(path);
      if (insp.kind !== 'dir')
        return err(appError('FOLDER-NOT-FOUND', `${path} is not a folder that can be read.`));
      const bucket = input.bucket;
      if (!isValidBucket(bucket)) {
        return err(
          appError(
            'BUCKET-INVALID',
            `The bucket "${bucket}" must match [a-z0-9][a-z0-9.-]{0,49} (lower-case letters, digits, dots, dashes).`,
          ),
        );
      }
      const bad = validatePatterns(input.ignore ?? '');
      if (bad) return err(appError('IGNORE-INVALID', bad));
      for (const f of folders.list()) {
        if (f.path === path)
          return err(appError('FOLDER-EXISTS', `${path} is already synced (to bucket ${f.bucket}).`));
        if (path.startsWith(`${f.path}/`) || f.path.startsWith(`${path}/`)) {
          return err(
            appError(
              'FOLDER-NESTED',
              `${path} overlaps the synced folder ${f.path}; a file must belong to one folder.`,
            ),
          );
        }
      }
      const folderInput: FolderInput = { path, bucket, mode: input.mode ?? 'upload-only' };
      if (input.ignore !== undefined) folderInput.ignore = input.ignore;
      if (input.watcher !== undefined) folderInput.watcher = input.watcher;
      if (input.followOutsideLinks !== undefined) folderInput.followOutsideLinks = input.followOutsideLinks;
      const folder = folders.insert(folderInput);
      ctx.log('folder-added', `Syncing ${path} to bucket ${bucket} (${folder.mode}).`, {
        folderId: folder.id,
      });
      if (running) {
        await rescan(folder.id);
        await startWatch(folder);
      }
      return ok(folder);
    },

    async updateFolder(id, patch) {
      const cur = folders.get(id);
      if (!cur) return err(appError('FOLDER-UNKNOWN', `No synced folder has id ${id}.`));
      if (patch.bucket !== undefined && !isValidBucket(patch.bucket)) {
        return err(
          appError('BUCKET-INVALID', `The bucket "${patch.bucket}" must match [a-z0-9][a-z0-9.-]{0,49}.`),
        );
      }
      if (patch.ignore !== undefined) {
        const bad = validatePatterns(patch.ignore);
        if (bad) return err(appError('IGNORE-INVALID', bad));
      }
      const next = folders.update(id, stripUndefined(patch))!;
      ctx.log('folder-updated', `Settings of ${next.path} changed.`, { folderId: id });
      if (
        running &&
        (patch.ignore !== undefined || patch.watcher !== undefined || patch.followOutsideLinks !== undefined)
      ) {
        await watches.get(id)?.close();
        watches.delete(id);
        await rescan(id);
        await startWatch(next);
      }
      wake();
      return ok(next);
    },

    async removeFolder(id) {
      const cur = folders.get(id);
      if (!cur) return err(appError('FOLDER-UNKNOWN', `No synced folder has id ${id}.`));
      await watches.get(id)?.close();
      watches.delete(id);
      for (const [fileId, u] of uploading) if (files.get(fileId)?.folderId === id) u.controller.abort();
      folders.remove(id);
      ctx.log('folder-removed', `Stopped syncing ${cur.path}; its remote files are kept.`);
      return ok(true);
    },

    listFolders() {
      return folders.list().map((f) => ({
        ...f,
        counts: files.counts(f.id),
        inSync: !scanning.has(f.id) && !files.hasPending(f.id),
        watching: watches.get(f.id)?.kind ?? null,
      }));
    },

    pause(folderId) {
      if (folderId === undefined) userPaused = true;
      else folders.update(folderId, { paused: true });
      ctx.log(
        'user-paused',
        folderId === undefined ? 'Syncing paused.' : `Syncing of folder ${folderId} paused.`,
        { folderId: folderId ?? null },
      );
    },

    resume(folderId) {
      if (folderId === undefined) userPaused = false;
      else folders.update(folderId, { paused: false });
      ctx.log(
        'user-resumed',
        folderId === undefined ? 'Syncing resumed.' : `Syncing of folder ${folderId} resumed.`,
        { folderId: folderId ?? null },
      );
      wake();
    },

    retry(fileId) {
      const row = files.get(fileId);
      if (!row) return err(appError('FILE-UNKNOWN', `No file row has id ${fileId}.`));
      if (row.state !== 'FAILED' && row.state !== 'SKIPPED') {
        return err(
          appError(
            'NOT-RETRYABLE',
            `${row.name} is ${row.state}; only FAILED or SKIPPED files can be retried.`,
          ),
        );
      }
      const moved = ctx.move(fileId, 'NEW', {
        attempts: 0,
        nextRetryAt: null,
        notBefore: null,
        rehashed: false,
        reasonCode: null,
        reason: null,
      });
      wake();
      return moved ? ok(moved) : err(appError('FILE-UNKNOWN', `The file row ${fileId} changed meanwhile.`));
    },

    listFiles: (q = {}) => files.list(q),
    getFile: (id) => files.get(id),

    async findDuplicates() {
      const r = await findDuplicates(ctx);
      if (r.error) return err(appError(r.error.code, `Could not list the bucket: ${r.error.message}`));
      if (r.groups.length)
        ctx.log('duplicates-found', `${r.groups.length} file(s) exist more than once on the service.`);
      return ok(r.groups);
    },

    removeDuplicates: (groups) => removeDuplicates(ctx, groups),
    activity: (q = {}) => activityLog.list(q),
    on: (event, listener) => events.on(event, listener),

    waitUntilSettled() {
      return new Promise<SettledSummary>((resolve) => {
        const done = () => {
          const counts = files.counts();
          resolve({
            counts,
            stopped,
            allDone:
              !stopped &&
              Object.entries(counts).every(
                ([s, n]) => n === 0 || s === 'LIVE' || s === 'SKIPPED' || s === 'DELETED',
              ),
          });
        };
        if (isSettled() || !running) done();
        else settleWaiters.push(done);
        wake();
      });
    },

    get state() {
      return { running, userPaused, accountPaused, stopped };
    },
  };
  return engine;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export type { AppError, DuplicateGroup, FileRow, Folder, FolderCounts, SyncEvents };
