import { backoffDelayMs, FOLDER_LOOK_AGAIN_BACKOFF, scanAgainBackoff } from '../../service/retry-policy';
import type { SyncContext } from '../context';
import { applyChanges } from '../local/apply-changes';
import { scanFolder } from '../local/scanner';
import type { WatcherKind } from '../types';
import { adoptAtAdd } from '../upload/adopt-at-add';
import { checkLiveAgainstBucket } from '../upload/check-bucket';
import { type FolderWatch, type NativeSubscribe, type WatchChange, watchFolder } from '../watch/watch-folder';
import { runInBackground } from './background';
import { roomTimers } from './timers';

/** The end of a batch: changes to one folder within this window are recorded together. */
export const BATCH_MS = 100;
/** A folder that vanished is looked for again after 1 s, then 2 s, 4 s ... up to a minute, until it is back. */
export const LOOK_AGAIN = FOLDER_LOOK_AGAIN_BACKOFF;

/**
 * One synced folder's runner (Syncthing's folder service in lib/model is the model): it owns the
 * folder's scans, its watcher, its batch of watched changes and the batch's timer, the holds that keep
 * the scheduler away from its files (adoption at add), and its in-sync flag. The engine keeps only
 * what is true of all folders (engine-state.ts); the scheduler asks the runners which folders are held.
 *
 * Every failure of the runner's own work ends in a stated way: a watcher callback that throws, or a
 * batch of changes that cannot be recorded, is logged and the folder is scanned again; a scan that
 * throws is reported (`SCAN-FAILED`) and tried again with backoff on the engine's clock.
 */
export interface FolderRunner {
  readonly folderId: number;
  /**
   * Scans the folder and resolves when that scan has ended. Asked while a scan runs, it resolves after
   * one more scan that starts once the running one ends (many asks, one more scan).
   */
  scan(): Promise<void>;
  /** A scan soon, in the background; `reason` goes to the activity log ("Scanning X again (reason)"). */
  requestScan(reason?: string): void;
  /**
   * Runs `fn` while the scheduler neither hashes nor sends this folder's files: a check of the folder
   * against its bucket that must not race an upload of the same rows (adoption at add). One at a time.
   */
  hold<T>(fn: () => Promise<T>): Promise<T>;
  /** A folder added while the engine runs: scanned, its files already in the bucket adopted (held), then free. */
  adopt(): Promise<void>;
  /**
   * Holds the folder until `may` resolves (the engine's start-up: the account confirmed, the journal
   * settled), then, if it says true, checks its LIVE rows against its bucket (upload/check-bucket.ts).
   */
  checkBucket(may: Promise<boolean>): Promise<void>;
  isHeld(): boolean;
  isScanning(): boolean;
  /** Watches the folder (when the engine watches), then scans it once more to close the gap. */
  startWatch(): Promise<void>;
  stopWatch(): Promise<void>;
  watching(): WatcherKind | null;
  /** A row of the folder changed: it is not in sync until checked again. */
  changed(): void;
  /** Checks a changed folder: true once when it has just come in sync (bookkeeping tells the listeners). */
  checkInSync(): boolean;
  /** Nothing pending and not being scanned, now (the Folders view). */
  inSyncNow(): boolean;
  /** Cancels the runner's timers and scan, closes its watcher, and resolves once its work has ended. */
  stop(): Promise<void>;
}

export function createFolderRunner(
  ctx: SyncContext,
  folderId: number,
  deps: { subscribeNative?: NativeSubscribe; running(): boolean },
): FolderRunner {
  const timers = roomTimers<'batch' | 'rescan'>(ctx);
  const work = new Set<Promise<unknown>>();
  let stopped = false;
  let watch: FolderWatch | null = null;
  let watchStarting: Promise<void> | null = null;
  let changes = new Map<string, WatchChange['kind']>();
  let current: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  let scanAbort: AbortController | null = null;
  let scanFailures = 0;
  /** Looks for the folder since it vanished (its `problem` is FOLDER-MISSING's), for the backoff. */
  let lookedFor = 0;
  /** The watcher lost the folder (it moved away): a new one is made once a scan finds the folder. */
  let rewatch = false;
  let holds = 0;
  let holdChain: Promise<unknown> = Promise.resolve();
  let dirty = true;
  let inSync = false;

  /** The folder's path as last read, for messages that must not depend on the database working. */
  let path = `folder ${folderId}`;
  const folder = () => {
    const f = ctx.folders.get(folderId);
    if (f) path = f.path;
    return f;
  };
  const label = () => path;
  try {
    folder();
  } catch {
    // Named by its id until it can be read.
  }
  const track = <T>(p: Promise<T>): Promise<T> => {
    work.add(p);
    void p.then(
      () => work.delete(p),
      () => work.delete(p),
    );
    return p;
  };

  function scan(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (!current) {
      const done = () => {
        current = null;
      };
      current = runScan().then(done, done);
      return current;
    }
    queued ??= current.then(() => {
      queued = null;
      return scan();
    });
    return queued;
  }

  /** One scan; a failure is reported and the scan tried again later. */
  async function runScan(): Promise<void> {
    const abort = new AbortController();
    scanAbort = abort;
    try {
      const f = folder();
      if (!f) return;
      const scanned = await scanFolder(ctx, f, abort.signal);
      scanFailures = 0;
      lookAgainIfMissing();
      if (scanned.ok)
        ctx.events.emit('folder-scanned', {
          folderId,
          files: scanned.files,
          sameAsMark: scanned.sameAsMark === true,
        });
    } catch (e) {
      if (stopped) return;
      scanFailures++;
      const wait = backoffDelayMs(scanFailures, scanAgainBackoff(ctx.options.backoff));
      const message = `Scanning ${label()} failed: ${e instanceof Error ? e.message : String(e)}; it is scanned again in ${Math.ceil(wait / 1000)} s.`;
      ctx.events.emit('error', { folderId, code: 'SCAN-FAILED', message });
      timers.set('rescan', wait, { what: `Scanning ${label()} again`, folderId }, () => scan());
    } finally {
      scanAbort = null;
      dirty = true;
      ctx.wake();
    }
  }

  function requestScan(reason?: string) {
    if (stopped) return;
    track(
      runInBackground(ctx, { what: `Scanning ${label()}`, folderId }, () => {
        const why = `Scanning ${label()} again (${reason}).`;
        try {
          if (reason) ctx.log('rescan', why, { folderId });
        } catch {
          // The activity log failed (its database): the scan is what matters.
          ctx.report(why);
        }
        return scan();
      }),
    );
  }

  function hold<T>(fn: () => Promise<T>): Promise<T> {
    const run = async () => {
      holds++;
      try {
        return await fn();
      } finally {
        holds--;
        // What the hold did (adopted, sent again) is looked at for in-sync once it ends.
        dirty = true;
        ctx.wake();
      }
    };
    const p = holdChain.then(run, run);
    holdChain = track(p).catch(() => undefined);
    return p;
  }

  /** A watcher's callback: one that throws is recorded and the folder scanned again, never the process's end. */
  function guarded<A extends unknown[]>(what: string, fn: (...args: A) => void) {
    return (...args: A) =>
      void runInBackground(
        ctx,
        { what, folderId, onError: () => requestScan('a change seen by the watcher could not be taken') },
        () => fn(...args),
      );
  }

  function queueChanges(list: WatchChange[]) {
    if (stopped) return;
    for (const c of list) changes.set(c.name, c.kind);
    if (timers.has('batch')) return;
    timers.set(
      'batch',
      BATCH_MS,
      {
        what: `Applying the changes seen in ${label()}`,
        folderId,
        // Its paths were taken out of the batch: only a scan of the folder looks at them again.
        onError: () => requestScan('a batch of changes could not be recorded'),
      },
      applyBatch,
    );
  }

  async function applyBatch() {
    const f = folder();
    const batch = changes;
    changes = new Map();
    if (!f || batch.size === 0) return;
    const { needScan } = await applyChanges(ctx, f, batch);
    // A delete seen as the whole folder vanishing (folderMissing): a scan says so and looks for it again.
    if (needScan || (folder()?.problem && !f.problem)) requestScan();
    ctx.wake();
  }

  /**
   * A folder that vanished (renamed, unmounted) is marked and its files parked (local/observe.ts
   * folderMissing); nothing may tell the runner it is back (its watcher may watch nothing, or the old
   * directory), so it scans again on a growing interval until a scan finds it. Found only by a restart
   * before (the model-based test).
   */
  function lookAgainIfMissing() {
    if (stopped) return;
    if (!folder()?.problem) {
      lookedFor = 0;
      if (rewatch) {
        rewatch = false;
        void startWatch();
      }
      return;
    }
    lookedFor++;
    timers.set(
      'rescan',
      backoffDelayMs(lookedFor, LOOK_AGAIN),
      { what: `Looking for ${label()} again`, folderId },
      () => scan(),
    );
  }

  function startWatch(): Promise<void> {
    const f = folder();
    if (!f || stopped || watch || !ctx.options.watch || !deps.running()) return Promise.resolve();
    watchStarting ??= track(
      (async () => {
        try {
          const w = await watchFolder(
            f,
            {
              onChanges: guarded(`Taking the changes seen in ${f.path}`, queueChanges),
              onRescan: guarded(`Scanning ${f.path} after a watcher error`, (reason: string) =>
                requestScan(reason),
              ),
              onLost: guarded(`Watching ${f.path} again`, (reason: string) => lost(reason)),
            },
            (message) => {
              ctx.log('watch-fallback', message, { folderId });
              ctx.events.emit('error', { folderId, code: 'WATCH-FALLBACK', message });
            },
            {
              pollIntervalMs: ctx.options.pollIntervalMs,
              ...(deps.subscribeNative ? { subscribe: deps.subscribeNative } : {}),
            },
          );
          if (stopped || !deps.running() || !folder()) await w.close();
          else {
            watch = w;
            // The watcher starts after a scan, and what changed between the two reached neither: one
            // more scan closes the gap (unchanged files cost a stat and no write, so it is cheap).
            requestScan();
          }
        } catch (e) {
          ctx.events.emit('error', {
            folderId,
            code: 'WATCH-FAILED',
            message: `Could not watch ${f.path}: ${String(e)}`,
          });
        } finally {
          watchStarting = null;
        }
      })(),
    );
    return watchStarting;
  }

  /** The watcher watches nothing any more: dropped, the folder scanned (and looked for), watched anew once found. */
  function lost(reason: string) {
    if (stopped) return;
    const w = watch;
    watch = null;
    rewatch = true;
    track(w?.close().catch(() => undefined) ?? Promise.resolve());
    requestScan(reason);
  }

  async function stopWatch() {
    await watchStarting;
    const w = watch;
    watch = null;
    await w?.close();
  }

  return {
    folderId,
    scan,
    requestScan,
    hold,
    adopt: () =>
      hold(async () => {
        await scan();
        const f = folder();
        if (f) await adoptAtAdd(ctx, f);
      }),
    checkBucket: (may) =>
      hold(async () => {
        // The start-up scans have ended by then (engine.ts awaits them first).
        if (!(await may)) return;
        const f = folder();
        // A folder not found (its problem set) has parked rows: nothing of it is sent again.
        if (f && !stopped && !f.problem) await checkLiveAgainstBucket(ctx, f);
      }),
    isHeld: () => holds > 0,
    isScanning: () => current !== null || queued !== null,
    startWatch,
    stopWatch,
    watching: () => watch?.kind ?? null,
    changed() {
      dirty = true;
      inSync = false;
    },
    checkInSync() {
      if (!dirty) return false;
      dirty = false;
      // A hold checks the folder against its bucket: in sync only once that check has said so.
      if (inSync || current !== null || queued !== null || holds > 0 || !folder()) return false;
      if (ctx.files.hasPending(folderId)) return false;
      inSync = true;
      return true;
    },
    inSyncNow: () => current === null && queued === null && holds === 0 && !ctx.files.hasPending(folderId),
    async stop() {
      stopped = true;
      scanAbort?.abort();
      await Promise.allSettled([timers.stop(), stopWatch(), current, queued, ...work]);
    },
  };
}
