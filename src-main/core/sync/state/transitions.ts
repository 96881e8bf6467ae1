import type { FileState, FolderCounts } from '../types';

/**
 * The per-file state machine (docs/sync-engine.md). Every row change goes through `canMove`, so a
 * bug that would skip a step (say QUEUED straight to LIVE without a journal entry) fails loudly.
 */
const NEXT: Record<FileState, readonly FileState[]> = {
  NEW: ['NEW', 'HASHING', 'SKIPPED', 'FAILED', 'DELETING', 'DELETED', 'LIVE'],
  HASHING: ['NEW', 'QUEUED', 'SKIPPED', 'FAILED', 'LIVE', 'DELETING', 'DELETED'],
  QUEUED: ['NEW', 'UPLOADING', 'PAUSED', 'SKIPPED', 'FAILED', 'DELETING', 'DELETED'],
  UPLOADING: ['UPLOADING', 'NEW', 'QUEUED', 'LIVE', 'FAILED', 'PAUSED', 'SKIPPED'],
  // LIVE/PAUSED -> UPLOADING: another account; an intent is journaled and the bucket's listing decides
  // (adopted as LIVE, or QUEUED to be sent), as for an upload whose reply was lost.
  // LIVE -> SKIPPED: deleted in the Files view with "stop syncing them" (REMOVED-BY-YOU).
  LIVE: ['NEW', 'UPLOADING', 'DELETING', 'DELETED', 'SKIPPED'],
  // SKIPPED -> SKIPPED: the reason changed (a link now allowed to leave the folder, but to a folder).
  SKIPPED: ['SKIPPED', 'NEW', 'DELETING', 'DELETED'],
  FAILED: ['NEW', 'QUEUED', 'UPLOADING', 'FAILED', 'DELETING', 'DELETED'],
  PAUSED: ['NEW', 'QUEUED', 'UPLOADING', 'DELETING', 'DELETED'],
  DELETING: ['DELETING', 'DELETED', 'NEW'],
  // DELETED -> DELETED relabels a delete found later to be a rename (the reason changes, not the state).
  DELETED: ['NEW', 'DELETED'],
};

export function canMove(from: FileState, to: FileState): boolean {
  return NEXT[from].includes(to);
}

/**
 * "Pending", the one definition (the folder is not in sync, the engine not settled, and the app counts
 * it as pending while a row has one of these states). PAUSED is pending: the file waits for the
 * account to allow uploads and goes on unaided (docs/sync-engine.md). files-store.ts builds its SQL
 * from this list; the app imports it.
 */
export const PENDING_STATES: readonly FileState[] = [
  'NEW',
  'HASHING',
  'QUEUED',
  'UPLOADING',
  'PAUSED',
  'DELETING',
];

/** A row is pending in a pending state, or FAILED with a retry scheduled (for good: it needs the user). */
export function isPending(state: FileState, nextRetryAt: number | null): boolean {
  return PENDING_STATES.includes(state) || (state === 'FAILED' && nextRetryAt !== null);
}

/**
 * "Done": nothing more happens to the row unaided: LIVE, SKIPPED (with its reason) or DELETED.
 * waitUntilSettled's `allDone` (what `sync --once` exits 0 on) is every row done.
 */
export const DONE_STATES: readonly FileState[] = ['LIVE', 'SKIPPED', 'DELETED'];

export const isDone = (state: FileState): boolean => DONE_STATES.includes(state);

/**
 * "Waiting": the row waits for a step that no worker holds (its stability window, an upload slot, the
 * account, its retry, or the person): "Upload now" may put it at the front, a vanished folder parks
 * it. Not the same as pending: a FAILED row for good waits (for the person) and is not pending.
 */
export const WAITING_STATES: readonly FileState[] = ['NEW', 'QUEUED', 'PAUSED', 'FAILED'];

export const isWaiting = (state: FileState): boolean => WAITING_STATES.includes(state);

/**
 * "Busy": a step holds the row (its hash, its upload). A scan or the watcher leaves it to that step,
 * which checks the file again when it ends.
 */
export const BUSY_STATES: readonly FileState[] = ['HASHING', 'UPLOADING'];

export const isBusy = (state: FileState): boolean => BUSY_STATES.includes(state);

/**
 * A folder's files as every view counts them (the engine's folder list, the app's overview and its
 * tray, `assets-sync status`): `pending` is isPending (a FAILED row waiting for its automatic retry
 * included), `failed` only FAILED for good (it needs the person). So a folder whose only trouble is a
 * retry to come is "syncing", never "needs attention", and the counts add up to the files.
 */
export interface FolderTally {
  live: number;
  pending: number;
  failed: number;
  /** Skipped for a reason of the file (extension, size, link...), not counting removedByYou. */
  skipped: number;
  /** SKIPPED rows the person removed from the CDN in the Files view ("stop syncing them"). */
  removedByYou: number;
  /** Of pending: FAILED rows waiting for their automatic retry (the queue lists them as waiting). */
  retrying: number;
  /** Of pending: rows a worker holds (BUSY_STATES: hashing, uploading). */
  active: number;
}

/**
 * `failedRetrying`: the FAILED rows with a retry time (files-store `failedRetrying`); `removedByYou`:
 * the SKIPPED rows with REMOVED-BY-YOU (counted apart from the other skipped files).
 */
export function tallyFolder(counts: FolderCounts, failedRetrying: number, removedByYou: number): FolderTally {
  return {
    live: counts.LIVE,
    pending: PENDING_STATES.reduce((n, s) => n + counts[s], 0) + failedRetrying,
    failed: counts.FAILED - failedRetrying,
    skipped: counts.SKIPPED - removedByYou,
    removedByYou,
    retrying: failedRetrying,
    active: BUSY_STATES.reduce((n, s) => n + counts[s], 0),
  };
}
