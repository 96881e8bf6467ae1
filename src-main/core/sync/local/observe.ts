import { existsSync } from 'node:fs';
import type { SyncContext } from '../context';
import { folderMode } from '../folder-mode';
import { REMOVED_BY_YOU } from '../reason-codes';
import { canMove, isBusy, WAITING_STATES } from '../state/transitions';
import type { FileRow, Folder } from '../types';
import { type Inspection, sameStat } from './inspect';

/**
 * Records what was seen at one path (by a scan or a watch event) in the file's row: a new file is NEW,
 * a changed one goes back to NEW (a LIVE one keeps its remote as the version to replace), an unchanged
 * one costs nothing. Rows being hashed or uploaded are left alone: those steps check the file again.
 */
export function observe(
  ctx: SyncContext,
  folder: Folder,
  name: string,
  seen: Inspection,
  /** The row at this path when the caller read it already (the scanner reads a directory's rows at once). */
  known?: FileRow | null,
): void {
  if (seen.kind === 'dir') return;
  const row = known === undefined ? ctx.files.getByName(folder.id, name) : known;
  // Removed from the CDN by you (the Files view's "stop syncing them"): an edit is not sent either.
  if (row?.state === 'SKIPPED' && row.reasonCode === REMOVED_BY_YOU && seen.kind !== 'gone') return;
  if (seen.kind === 'gone') {
    if (row) localGone(ctx, folder, row);
    return;
  }
  const now = ctx.now();
  if (seen.kind === 'skip') {
    // Not announced as NEW: its move to SKIPPED just below is the row's first event.
    const id = row?.id ?? ctx.files.insertNew(folder.id, name, { size: 0, mtimeMs: 0, inode: 0 }, now);
    const current = row ?? ctx.files.get(id)!;
    if (current.state === 'SKIPPED' && current.reasonCode === seen.code) return;
    if (canMove(current.state, 'SKIPPED') && current.state !== 'UPLOADING') {
      ctx.transition(id, 'SKIPPED', { reasonCode: seen.code, reason: seen.message, nextRetryAt: null });
    }
    return;
  }
  const stat = { size: seen.size, mtimeMs: seen.mtimeMs, inode: seen.inode };
  const notBefore = Math.min(stat.mtimeMs, now) + ctx.options.stabilityMs;
  if (!row) {
    ctx.insertNew(folder.id, name, stat, notBefore);
    ctx.wake();
    return;
  }
  if (isBusy(row.state)) return;
  const waitingForFolder = row.state === 'FAILED' && row.reasonCode === FOLDER_MISSING;
  if (row.state !== 'DELETED' && row.state !== 'DELETING' && !waitingForFolder && sameStat(row, stat)) return;
  const patch = {
    ...stat,
    notBefore,
    md5: null,
    reasonCode: null,
    reason: null,
    nextRetryAt: null,
    attempts: 0,
    rehashed: false,
  };
  if (row.state === 'LIVE') {
    ctx.transition(row.id, 'NEW', { ...patch, oldRemoteId: row.remoteId });
  } else if (row.state === 'DELETING') {
    // The file came back while its remote was being removed: finish removing it, upload afresh.
    if (row.remoteId !== null)
      ctx.trash.add(row.remoteId, `${name} came back while its remote copy was being deleted`);
    ctx.transition(row.id, 'NEW', {
      ...patch,
      remoteId: null,
      remoteUrl: null,
      remoteMd5: null,
      remoteSize: null,
    });
  } else {
    ctx.transition(row.id, 'NEW', patch);
  }
  ctx.wake();
}

/**
 * The local file is gone: the folder's mode decides what happens to its remote copy (folder-mode.ts).
 * A file never uploaded simply ends DELETED.
 */
export function localGone(ctx: SyncContext, folder: Folder, row: FileRow): void {
  if (row.state === 'DELETED' || row.state === 'DELETING' || isBusy(row.state)) return;
  // A whole folder that vanished was renamed or unmounted, not emptied: never delete remotes for that.
  if (!existsSync(folder.path)) {
    folderMissing(ctx, folder);
    return;
  }
  const outcome = folderMode(folder.mode).onLocalDelete(row);
  if (outcome.trashOldVersion && row.oldRemoteId !== null)
    ctx.trash.add(row.oldRemoteId, `old version of ${row.name}`);
  if (outcome.to === 'DELETING') {
    ctx.transition(row.id, 'DELETING', {
      reasonCode: 'LOCAL-DELETE',
      reason: outcome.reason,
      oldRemoteId: null,
    });
    ctx.wake();
    return;
  }
  ctx.transition(row.id, 'DELETED', {
    reasonCode: 'LOCAL-DELETE',
    reason: outcome.reason,
    oldRemoteId: null,
    nextRetryAt: null,
  });
}

export const FOLDER_MISSING = 'FOLDER-MISSING';

/** The folder itself is gone: say so, and park its waiting files until it is back (nothing is deleted). */
export function folderMissing(ctx: SyncContext, folder: Folder): void {
  const message = `The folder ${folder.path} is missing (renamed, moved or unmounted). Its files wait until it is back; nothing was deleted.`;
  if (ctx.folder(folder.id)?.problem !== message) {
    ctx.folders.update(folder.id, { problem: message });
    ctx.log('folder-missing', message, { folderId: folder.id });
    ctx.events.emit('error', { folderId: folder.id, code: FOLDER_MISSING, message });
  }
  for (const state of WAITING_STATES) {
    let afterId = 0;
    for (;;) {
      const rows = ctx.files.list({ folderId: folder.id, state, limit: 500, afterId });
      if (rows.length === 0) break;
      afterId = rows[rows.length - 1]!.id;
      for (const r of rows) {
        if (r.reasonCode === FOLDER_MISSING) continue;
        ctx.transition(r.id, 'FAILED', { reasonCode: FOLDER_MISSING, reason: message, nextRetryAt: null });
      }
    }
  }
}
