import type { FileState } from '../types';

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
