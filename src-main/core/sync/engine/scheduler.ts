import { backoffDelayMs, engineAskAgain } from '../../service/retry-policy';
import type { SyncContext } from '../context';
import { prepareFile } from '../hash/prepare';
import type { FilePatch } from '../state/files-store';
import type { FileRow, FileState } from '../types';
import { runDeletes } from '../upload/deleter';
import { reconcileJournal } from '../upload/reconcile';
import { uploadOne } from '../upload/upload-one';
import { type BackgroundTask, runInBackground } from './background';
import type { EngineState } from './engine-state';
import type { ProgressBookkeeping } from './progress-bookkeeping';

export interface Scheduler {
  /** Asks for a turn soon (coalesced: many wakes, one turn). */
  wake(): void;
  /** Asks for open journal entries to be matched against a listing after `delay` (batched). */
  requestReconcile(delay?: number): void;
  /** Matches open journal entries now (start-up, before anything is sent). */
  runReconcile(): Promise<void>;
}

/**
 * What runs next. Every turn reads SQLite rows, so a restart resumes where it was: due retries go
 * back to the queue, NEW rows get hashing slots, QUEUED rows get upload slots (one always kept for
 * small files), deletes run one batch at a time, and a timer wakes the next turn when a retry or a
 * stability window falls due. Nothing is hashed or sent while the engine starts, is paused or stopped.
 */
/** After a scheduler turn that threw. */
const TURN_RETRY_MS = 1_000;

export function createScheduler(ctx: SyncContext, state: EngineState, book: ProgressBookkeeping): Scheduler {
  const { files, folders, trash, options, now } = ctx;

  function wake() {
    if (state.pumpQueued) return;
    state.pumpQueued = true;
    setImmediate(() => {
      state.pumpQueued = false;
      void runInBackground(ctx, { what: 'A scheduler turn', onError: retryTurnLater }, pump);
    });
  }

  function pump() {
    if (!state.running) return;
    if (state.stopped || state.startingUp) {
      book.checkInSync();
      return;
    }
    const t = now();
    const pausedFolders = folders
      .list()
      .filter(
        (f) =>
          f.paused || f.problem || state.adopting.has(f.id) || (options.onlyFolder && !options.onlyFolder(f)),
      )
      .map((f) => f.id);
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
      runInBackground(ctx, { what: 'Sending remote deletes', code: 'DELETE-FAILED' }, () =>
        runDeletes(ctx),
      ).finally(() => {
        state.deleting = false;
        if (trash.due(1).length || files.inState('DELETING', 1, { dueBy: now() }).length) wake();
        else book.checkInSync();
      });
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
      runInBackground(ctx, rowTask(row, `Preparing ${row.name}`), () => prepareFile(ctx, row)).finally(() => {
        preparing.delete(row.id);
        wake();
      });
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
    runInBackground(ctx, rowTask(row, `Uploading ${row.name}`), () =>
      uploadOne(ctx, row, {
        signal: slot.controller.signal,
        onProgress: (sent) => book.uploadProgress(row, slot, sent),
      }),
    ).finally(() => {
      uploading.delete(row.id);
      wake();
    });
  }

  function scheduleDue() {
    if (state.timers.due) clearTimeout(state.timers.due);
    state.timers.due = null;
    const due = files.nextDue();
    if (due === null) return;
    state.timers.due = setTimeout(wake, Math.max(20, Math.min(due - now(), 60_000)));
  }

  /** A file's hashing or upload: a bug must not wedge its row in a busy state. */
  function rowTask(row: FileRow, what: string): BackgroundTask {
    return {
      what,
      code: 'INTERNAL',
      folderId: row.folderId,
      fileId: row.id,
      onError: (message) => {
        // Parked as FAILED with the message, visible to the user (retry() starts it again).
        const cur = files.get(row.id);
        if (cur && (cur.state === 'HASHING' || cur.state === 'NEW' || cur.state === 'QUEUED')) {
          ctx.transition(row.id, 'FAILED', { reasonCode: 'INTERNAL', reason: message, nextRetryAt: null });
        }
      },
    };
  }

  /** A turn that failed (say a database error): the next one comes a little later, not in a tight loop. */
  function retryTurnLater() {
    if (!state.running) return;
    if (state.timers.due) clearTimeout(state.timers.due);
    state.timers.due = setTimeout(wake, TURN_RETRY_MS);
  }

  // ---- journal reconciliation: uploads whose outcome is unknown, settled by a listing ----
  function requestReconcile(delay = options.reconcileDelayMs) {
    if (state.timers.reconcile || state.stopped) return;
    state.timers.reconcile = setTimeout(() => {
      state.timers.reconcile = null;
      void runInBackground(ctx, { what: 'Settling uploads whose outcome is unknown' }, runReconcile);
    }, delay);
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

  return { wake, requestReconcile, runReconcile };
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
