import { backoffDelayMs, engineAskAgain } from '../../service/retry-policy';
import type { SyncContext } from '../context';
import { prepareFile } from '../hash/prepare';
import type { FilePatch } from '../state/files-store';
import type { FileRow, FileState } from '../types';
import { runDeletes } from '../upload/deleter';
import { scheduleRetry } from '../upload/on-upload-error';
import { reconcileJournal } from '../upload/reconcile';
import { uploadOne } from '../upload/upload-one';
import { type BackgroundTask, runInBackground } from './background';
import type { EngineState } from './engine-state';
import type { FolderRunners } from './folder-runners';
import type { ProgressBookkeeping } from './progress-bookkeeping';
import { roomTimers } from './timers';
import { wallSteps } from './wall-steps';

export interface Scheduler {
  /** Asks for a turn soon (coalesced: many wakes, one turn). */
  wake(): void;
  /** Asks for open journal entries to be matched against a listing after `delay` (batched). */
  requestReconcile(delay?: number): void;
  /** Matches open journal entries now (start-up, before anything is sent). */
  runReconcile(): Promise<void>;
  /** Aborts the uploads of one folder (it is being removed). */
  abortFolder(folderId: number): void;
  /**
   * Cancels the scheduler's timers, aborts the uploads on the wire (their journal entries stay open for
   * the next start), and resolves once every hash, upload, delete batch and reconciliation it started
   * has ended.
   */
  stop(): Promise<void>;
}

/**
 * What runs next. Every turn reads SQLite rows, so a restart resumes where it was: due retries go
 * back to the queue, NEW rows get hashing slots, QUEUED rows get upload slots (one always kept for
 * small files), deletes run one batch at a time, and a timer wakes the next turn when a retry or a
 * stability window falls due. Nothing is hashed or sent while the engine starts, is paused or stopped.
 */
/** After a scheduler turn that threw. */
const TURN_RETRY_MS = 1_000;

export function createScheduler(
  ctx: SyncContext,
  state: EngineState,
  deps: { book: ProgressBookkeeping; runners: FolderRunners },
): Scheduler {
  const { files, folders, trash, options, now } = ctx;
  const { book, runners } = deps;
  const timers = roomTimers<'due' | 'reconcile'>(ctx);
  /** The retry or stability window the due timer is set for. */
  let dueFor: number | null = null;
  /** The wall clock against the monotonic one: a step back moves the stored waits back with it. */
  const steps = wallSteps(ctx.clock);
  /**
   * A wait stored before this start ends at most the policy's longest delay from now: the wall clock may
   * have been set back while nothing ran (docs/sync-engine.md "Time").
   */
  files.capWaits(now() + Math.max(options.backoff.capMs, options.stabilityMs));
  /** Everything the scheduler started and nobody awaits: stop() waits for it. */
  const inFlight = new Set<Promise<void>>();
  const start = (task: BackgroundTask, fn: () => unknown): Promise<void> => {
    const p = runInBackground(ctx, task, fn);
    inFlight.add(p);
    void p.then(() => inFlight.delete(p));
    return p;
  };

  function wake() {
    if (state.pumpQueued) return;
    state.pumpQueued = true;
    setImmediate(() => {
      state.pumpQueued = false;
      void start({ what: 'A scheduler turn', onError: retryTurnLater }, pump);
    });
  }

  function pump() {
    if (!state.running) return;
    if (state.stopped || state.startingUp) {
      book.checkInSync();
      return;
    }
    const back = steps.back();
    if (back > 0) {
      files.shiftWaits(-back);
      dueFor = null;
    }
    const t = now();
    const pausedFolders = folders
      .list()
      .filter((f) => f.paused || f.problem || (options.onlyFolder && !options.onlyFolder(f)))
      .map((f) => f.id)
      .concat(runners.held());
    if (!state.userPaused && !state.schedulePaused) {
      for (const r of files.dueRetries(50, t))
        ctx.transition(r.id, 'QUEUED', { nextRetryAt: null }, ['FAILED']);
      startHashing(t, pausedFolders);
      // Offline: nothing is sent but the connectivity probe; the rows wait as they are.
      if (state.accountPaused) {
        if (files.inState('QUEUED', 1).length) {
          const { code, message } = state.accountPaused;
          transitionAll(ctx, 'QUEUED', 'PAUSED', { reasonCode: code, reason: message });
        }
      } else if (!state.offline) startUploads(t, pausedFolders);
    }
    if (!state.deleting && !state.offline) {
      state.deleting = true;
      void start(
        {
          what: 'Sending remote deletes',
          code: 'DELETE-FAILED',
          after: () => {
            state.deleting = false;
            if (trash.due(1).length || files.inState('DELETING', 1, { dueBy: now() }).length) wake();
            else book.checkInSync();
          },
        },
        () => runDeletes(ctx),
      );
    }
    scheduleDue();
    book.checkInSync();
  }

  function startHashing(t: number, pausedFolders: number[]) {
    const { preparing } = state;
    const hashSlots = options.hasherThreads * 2 - preparing.size;
    if (hashSlots <= 0) return;
    for (const row of files.inState('NEW', hashSlots + preparing.size, {
      dueBy: t,
      excludeFolders: pausedFolders,
    })) {
      if (preparing.size >= options.hasherThreads * 2) break;
      if (preparing.has(row.id)) continue;
      preparing.add(row.id);
      void start(
        rowTask(row, `Preparing ${row.name}`, () => {
          preparing.delete(row.id);
          wake();
        }),
        () => prepareFile(ctx, row),
      );
    }
  }

  function startUploads(t: number, pausedFolders: number[]) {
    const { uploading } = state;
    // One slot more for the live lane and "Upload now" (engine/priority.ts): a file just dropped does not
    // wait for a backlog upload to finish before it can take its place at the front of the budget.
    const free = options.concurrency - uploading.size;
    if (free <= 0) {
      if (free === 0) startPriorityUpload(t, pausedFolders);
      return;
    }
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
      startUpload(row);
    }
  }

  function startPriorityUpload(t: number, pausedFolders: number[]) {
    const [row] = files.inState('QUEUED', 1, { dueBy: t, excludeFolders: pausedFolders });
    if (row && row.priority > 0 && !state.uploading.has(row.id)) startUpload(row);
  }

  function startUpload(row: FileRow) {
    const { uploading } = state;
    const slot = { controller: new AbortController(), size: row.size ?? 0, sent: 0, shownAt: 0 };
    uploading.set(row.id, slot);
    void start(
      rowTask(row, `Uploading ${row.name}`, () => {
        uploading.delete(row.id);
        wake();
      }),
      () =>
        uploadOne(ctx, row, {
          signal: slot.controller.signal,
          onProgress: (sent) => book.uploadProgress(row, slot, sent),
        }),
    );
  }

  /** The turn when the next retry or stability window falls due (set again only when that changes). */
  function scheduleDue() {
    const due = files.nextDue();
    if (due === dueFor && timers.has('due')) return;
    dueFor = due;
    if (due === null) {
      timers.clear('due');
      return;
    }
    timers.set('due', Math.max(20, Math.min(due - now(), 60_000)), { what: 'A scheduler turn' }, wake);
  }

  /** A file's hashing or upload: a bug must not wedge its row in a busy state. */
  function rowTask(row: FileRow, what: string, after: () => void): BackgroundTask {
    return {
      what,
      code: 'INTERNAL',
      folderId: row.folderId,
      fileId: row.id,
      after,
      onError: (message) => {
        const cur = files.get(row.id);
        if (!cur) return;
        // Sent, or maybe sent: the listing decides (adopted, or FAILED with its retry), never a resend.
        if (cur.state === 'UPLOADING') ctx.requestReconcile();
        // Not sent: FAILED with the message and its retry (for good once the attempts are used up).
        else if (cur.state === 'HASHING' || cur.state === 'NEW' || cur.state === 'QUEUED')
          scheduleRetry(ctx, cur, { code: 'INTERNAL', message });
      },
    };
  }

  /** A turn that failed (say a database error): the next one comes a little later, not in a tight loop. */
  function retryTurnLater() {
    if (!state.running) return;
    dueFor = null;
    timers.set('due', TURN_RETRY_MS, { what: 'A scheduler turn' }, wake);
  }

  // ---- journal reconciliation: uploads whose outcome is unknown, settled by a listing ----
  function requestReconcile(delay = options.reconcileDelayMs) {
    if (timers.has('reconcile') || state.stopped || !state.running) return;
    timers.set('reconcile', delay, { what: 'Settling uploads whose outcome is unknown' }, runReconcile);
  }

  async function runReconcile(): Promise<void> {
    // Stopped (401, account closed): nothing more is sent; open intents are settled at the next start.
    if (state.stopped || !state.running) return;
    // Offline: coming back online runs it (connectivity.ts); a listing now would only fail again.
    if (state.offline) return;
    if (state.reconciling) {
      requestReconcile();
      return;
    }
    state.reconciling = true;
    let okAll = false;
    try {
      okAll = await reconcileJournal(ctx, new Set(state.uploading.keys()));
    } finally {
      // A listing that failed, or a reconciliation that threw: tried again with backoff.
      state.reconcileFailures = okAll ? 0 : state.reconcileFailures + 1;
      if (!okAll && !state.stopped)
        requestReconcile(backoffDelayMs(state.reconcileFailures, engineAskAgain(options.backoff)));
      state.reconciling = false;
      wake();
    }
  }

  return {
    wake,
    requestReconcile,
    runReconcile,
    abortFolder(folderId) {
      for (const [fileId, u] of state.uploading)
        if (files.get(fileId)?.folderId === folderId) u.controller.abort();
    },
    async stop() {
      for (const u of state.uploading.values()) u.controller.abort();
      await timers.stop();
      dueFor = null;
      // A task may start another on its way out (a turn, a rescan's wake): wait until none is left.
      while (inFlight.size) await Promise.allSettled([...inFlight]);
    },
  };
}

/** Moves every row in `from` to `to`, 500 per transaction (account pause and resume). */
export function transitionAll(
  ctx: SyncContext,
  from: FileState,
  to: FileState,
  patch: Pick<FilePatch, 'reasonCode' | 'reason'>,
): void {
  for (;;) {
    const rows = ctx.files.inState(from, 500);
    if (rows.length === 0) return;
    ctx.db.transaction(() => {
      for (const r of rows) ctx.transition(r.id, to, patch, [from]);
    })();
  }
}
