import { estimateTimeLeft, type LimitWindow } from '../../../../src-shared/domain/time-left';
import type { SyncEmitter, SyncEvents } from '../events';
import type { FilesStore } from '../state/files-store';
import type { FoldersStore } from '../state/folders-store';
import type { TrashStore } from '../state/trash-store';
import type { FileRow, FileState, Folder } from '../types';
import type { RateLimiter } from './bandwidth';
import type { EngineState, UploadSlot } from './engine-state';
import type { FolderRunners } from './folder-runners';

/** A gap this long before an upload's first bytes, with nothing else in flight, is idle, not slow. */
const IDLE_MS = 1_000;

export interface ProgressBookkeeping {
  /**
   * The one way out of a `file` event (SyncContext.transition and insertNew call it): the listeners are told,
   * and the session's counts and the folder's in-sync flag follow.
   */
  fileChanged(row: FileRow, from: FileState | null): void;
  /** Bytes of one upload sent so far: the speed, its `upload-progress` event, the overall `progress`. */
  uploadProgress(row: FileRow, slot: UploadSlot, sent: number): void;
  /** The overall `progress` event, at most four times a second unless forced. */
  emitProgress(force?: boolean): void;
  /** Says `folder-in-sync` for changed folders with nothing left to do (their runners decide), and wakes settle waiters. */
  checkInSync(): void;
  /** Nothing pending, in flight or starting (or the engine stopped). */
  isSettled(): boolean;
}

/**
 * Progress bookkeeping for this session: files and bytes queued since start, done, in flight; speed and
 * ETA; which folders are in sync; when the engine has settled. Reads the stores, writes none.
 */
export function createProgressBookkeeping(
  state: EngineState,
  deps: {
    events: SyncEmitter;
    files: FilesStore;
    folders: FoldersStore;
    trash: TrashStore;
    /** The folders' runners: each keeps its folder's in-sync flag and says whether it is being scanned. */
    runners: FolderRunners;
    now: () => number;
    onlyFolder?: ((folder: Folder) => boolean) | null;
    /** The upload rate limit: the bytes' side of the ETA never counts on more than it allows. */
    limiter?: RateLimiter;
    /** The request budget's rate (0: none): each file left is one upload request. */
    requestsPerMinute?: () => number;
    /** The schedule's pause in force and its windows ahead (schedule.ts `ahead`). */
    scheduleAhead?: () => { pausedUntil: number | null; windows: LimitWindow[] };
    /** The request budget sends nothing before then (epoch ms): a 429's Retry-After, the office's turn. */
    requestsHeldUntil?: () => number | null;
  },
): ProgressBookkeeping {
  const { events, files, folders, trash, runners, now } = deps;
  const p = state.progress;

  // This run of work (from the first file counted to the last done): the pace of files, and the files
  // that only wait for their retry (counted by their retry time, never as bytes to send now).
  const run = { startedAt: null as number | null, filesDone: 0 };
  const retrying = new Map<number, number>();
  // When the upload requests of the last minute went: the request budget's window, as the ETA reads it.
  const grants: number[] = [];
  // When the run's last files went live: the pace of files now (time-left.ts).
  const doneAt: number[] = [];
  /** When bytes were last sent: a gap of IDLE_MS with nothing in flight is skipped by the speed meter. */
  let idleSince = Number.NEGATIVE_INFINITY;

  function fileChanged(row: FileRow, from: FileState | null) {
    const e = fileEvent(row, from);
    // A NEW row noticed changed again is still NEW: nothing for a listener ("NEW -> NEW"). A row just
    // made says so with `from: null`.
    if (!(from === 'NEW' && row.state === 'NEW')) events.emit('file', e);
    runners.peek(e.folderId)?.changed();
    if (e.to === 'UPLOADING') {
      const t = now();
      grants.push(t);
      while (grants.length > 0 && grants[0]! <= t - 60_000) grants.shift();
    }
    // A file counts from when it is seen (NEW), not from its hash: 300 files found at once are 300 to
    // go, not the few hashed so far (the estimate said 3 s for two minutes of work). Its size is read
    // again once hashed (QUEUED), the bytes that will be sent.
    if ((e.to === 'NEW' || e.to === 'QUEUED') && (e.to === 'QUEUED' || !p.counted.has(e.fileId))) {
      if (p.counted.size === 0) {
        Object.assign(run, { startedAt: now(), filesDone: 0 });
        doneAt.length = 0;
      }
      p.counted.set(e.fileId, row.size ?? files.get(e.fileId)?.size ?? 0);
    }
    if (e.to === 'FAILED' && e.nextRetryAt !== null && p.counted.has(e.fileId)) {
      retrying.set(e.fileId, e.nextRetryAt);
      emitProgress(true);
    } else retrying.delete(e.fileId);
    if (e.to === 'LIVE' && p.counted.has(e.fileId)) {
      p.filesDone++;
      run.filesDone++;
      doneAt.push(now());
      if (doneAt.length > 10) doneAt.shift();
      p.bytesDone += p.counted.get(e.fileId) ?? 0;
      p.counted.delete(e.fileId);
      p.filesDone > 0 && emitProgress(true);
    } else if (
      (e.to === 'SKIPPED' || e.to === 'DELETED' || (e.to === 'FAILED' && e.nextRetryAt === null)) &&
      p.counted.has(e.fileId)
    ) {
      p.counted.delete(e.fileId);
      emitProgress(true);
    }
  }

  function emitProgress(force = false) {
    const t = now();
    if (!force && t - p.lastEmittedAt < 250) return;
    p.lastEmittedAt = t;
    // Only uploads still counted as pending: one that just went LIVE has moved its bytes to bytesDone
    // already (its slot goes right after), and one not counted in this session is in no total. Each is
    // capped at its counted size, so bytesSent never passes bytesTotal.
    let inflight = 0;
    let wireLeft = 0;
    for (const [fileId, u] of state.uploading) {
      const size = p.counted.get(fileId) ?? 0;
      inflight += Math.min(u.sent, size);
      wireLeft += Math.max(0, size - u.sent);
    }
    let pendingBytes = 0;
    for (const b of p.counted.values()) pendingBytes += b;
    let retryBytes = 0;
    for (const id of retrying.keys()) retryBytes += p.counted.get(id) ?? 0;
    // With nothing in flight the link is idle, not slow (the 300 files' minute waiting for the budget
    // decayed the speed to a fifth, and the last burst of 30 small files said 4.4 s for 0.7 s).
    const bps = state.uploading.size > 0 ? p.meter.bytesPerSecond(t) : p.meter.idle(t);
    const schedule = deps.scheduleAhead?.();
    const eta = estimateTimeLeft({
      now: t,
      startedAt: run.startedAt,
      bytesLeft: pendingBytes - inflight - retryBytes,
      filesLeft: p.counted.size - retrying.size,
      filesDone: run.filesDone,
      bytesPerSecond: bps,
      limitBytesPerSecond: deps.limiter?.rate() ?? null,
      requestsPerMinute: deps.requestsPerMinute?.() ?? 0,
      filesInFlight: state.uploading.size,
      bytesInFlightLeft: wireLeft,
      recentRequests: grants,
      recentDone: doneAt,
      retryAts: [...retrying.values()],
      pausedUntil: schedule?.pausedUntil ?? null,
      windowsAhead: schedule?.windows ?? [],
      requestsHeldUntil: deps.requestsHeldUntil?.() ?? null,
    });
    events.emit('progress', {
      filesDone: p.filesDone,
      filesTotal: p.filesDone + p.counted.size,
      bytesSent: p.bytesDone + inflight,
      bytesTotal: p.bytesDone + pendingBytes,
      bytesPerSecond: Math.round(bps),
      etaSeconds: eta.seconds,
      etaBound: eta.bound,
    });
  }

  function uploadProgress(row: FileRow, slot: UploadSlot, sent: number) {
    const at = now();
    // An upload's first bytes after a spell with nothing in flight: that spell was not the link's.
    if (slot.sent === 0 && state.uploading.size === 1 && at - idleSince >= IDLE_MS) p.meter.idle(at);
    p.meter.add(sent - slot.sent, at);
    idleSince = at;
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
  }

  function checkInSync() {
    for (const r of runners.all())
      if (r.checkInSync()) events.emit('folder-in-sync', { folderId: r.folderId });
    if (state.settleWaiters.length && isSettled()) for (const w of state.settleWaiters.splice(0)) w();
  }

  function isSettled(): boolean {
    if (state.stopped) return true;
    // Still starting (or waiting for /me to say which account this is): nothing is known to be done.
    if (state.startingUp) return false;
    return (
      !runners.scanning() &&
      state.preparing.size === 0 &&
      state.uploading.size === 0 &&
      !state.deleting &&
      !state.reconciling &&
      !pendingRun() &&
      trash.count() === 0
    );
  }

  // A run restricted to some folders (options.onlyFolder) settles on theirs alone.
  function pendingRun(): boolean {
    const only = deps.onlyFolder;
    if (!only) return files.hasPending();
    return folders.list().some((f) => only(f) && files.hasPending(f.id));
  }

  return { fileChanged, uploadProgress, emitProgress, checkInSync, isSettled };
}

function fileEvent(row: FileRow, from: FileState | null): SyncEvents['file'] {
  return {
    fileId: row.id,
    folderId: row.folderId,
    name: row.name,
    from,
    to: row.state,
    reasonCode: row.reasonCode,
    reason: row.reason,
    remoteUrl: row.remoteUrl,
    nextRetryAt: row.nextRetryAt,
    renamedFrom: row.renamedFrom,
  };
}
