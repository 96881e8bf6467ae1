import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { RemoteFile } from '../../../../src-shared/api/file-hosting';
import type { SyncContext } from '../context';
import { inspectPath, sameStat } from '../local/inspect';
import { localGone, observe } from '../local/observe';
import { type HandleStat, openInFolder, statOfHandle } from '../local/open-in-folder';
import type { FileRow } from '../types';
import { awaitListing, RECORD_FAILED, reactToUploadError } from './on-upload-error';

/**
 * QUEUED -> UPLOADING -> LIVE for one file: checks the file once more, journals the intent in the same
 * transaction as the state change, streams it with its md5, and records the reply. After the upload
 * the file is checked again: a file that changed meanwhile goes back to NEW as a new version.
 */
export async function uploadOne(
  ctx: SyncContext,
  row: FileRow,
  opts: { signal?: AbortSignal; onProgress?: (sentBytes: number) => void } = {},
): Promise<void> {
  const folder = ctx.folder(row.folderId);
  if (!folder || row.size === null) return;
  const abs = join(folder.path, row.name);
  // The bytes sent are read from this handle, checked after opening (a link retargeted since the hash
  // must not send what it points to now): see open-in-folder.ts.
  const opened = await openInFolder(abs, folder);
  if (!opened.ok || !sameStat(row, opened.stat)) {
    if (opened.ok) await opened.handle.close();
    if (!opened.ok && opened.seen.kind === 'gone') localGone(ctx, folder, row);
    else ctx.transition(row.id, 'NEW', { md5: null, notBefore: null }, ['QUEUED', 'FAILED']);
    ctx.wake();
    return;
  }
  const { handle } = opened;
  const md5 = row.md5;
  const size = row.size;
  let journalId: number | null;
  try {
    journalId = ctx.db.transaction(() => {
      if (!ctx.transition(row.id, 'UPLOADING', {}, ['QUEUED', 'FAILED'])) return null;
      // '' = hashed while sending: set before the last bytes leave (journalSentMd5 below).
      return ctx.journal.open({
        fileId: row.id,
        bucket: folder.bucket,
        name: row.name,
        size,
        md5: md5 ?? '',
      });
    })();
  } catch (e) {
    // A database error (the caller marks the row): the file is not left open until a collection.
    await handle.close().catch(() => undefined);
    throw e;
  }
  if (journalId === null) {
    await handle.close();
    return;
  }

  let res: Awaited<ReturnType<typeof ctx.client.uploadFile>> | { thrown: unknown };
  try {
    res = await ctx.client.uploadFile({
      path: abs,
      handle,
      size,
      name: row.name,
      bucket: folder.bucket,
      ...(md5 !== null
        ? { md5 }
        : {
            hashWhileSending: (sent: string) =>
              journalSentMd5(ctx, row, handle, opened.stat, sent, journalId),
          }),
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
      pace: ctx.limiter,
      // The live lane and "Upload now" wait ahead of the backlog for the request budget too.
      ...(row.priority > 0 ? { first: true } : {}),
    });
  } catch (e) {
    // The call threw instead of answering (a bug, not the service): the bytes may have left.
    res = { thrown: e };
  } finally {
    await handle.close().catch(() => undefined);
  }
  const current = ctx.files.get(row.id);
  if (!current) return;
  if ('thrown' in res) {
    awaitListing(ctx, current, 'INTERNAL', `The upload failed inside the app: ${messageOf(res.thrown)}.`);
    return;
  }
  if (!res.ok) {
    reactToUploadError(ctx, current, journalId, res.error);
    return;
  }
  try {
    markLive(ctx, current, res.value, journalId, 'LIVE');
  } catch (e) {
    // Stored by the service, not recorded here (a database error): the listing adopts that copy.
    const message = `The service stored ${row.name}, but it could not be recorded here: ${messageOf(e)}.`;
    ctx.events.emit('error', { folderId: row.folderId, code: RECORD_FAILED, message });
    awaitListing(ctx, current, RECORD_FAILED, message);
    return;
  }
  const after = await inspectPath(abs, folder);
  const live = ctx.files.get(row.id);
  if (live?.state === 'LIVE') observe(ctx, folder, row.name, after);
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * The md5 of a large new file (prepare.ts decides which), hashed from the bytes as the upload read them,
 * journaled before it is sent as the body's last bytes: a copy the service may have stored always has
 * its md5 on record for the reconciliation. The open file is looked at once more first: a write while
 * it was read (its size, mtime, inode or ctime no longer those of the open) fails the body (FILE-CHANGED:
 * read anew), so the service never completes a copy torn between two versions of the file.
 */
async function journalSentMd5(
  ctx: SyncContext,
  row: FileRow,
  handle: FileHandle,
  opened: HandleStat,
  md5: string,
  journalId: number,
): Promise<void> {
  const now = await statOfHandle(handle);
  if (!sameStat(opened, now) || now.ctimeMs !== opened.ctimeMs)
    throw new Error('The file changed while it was sent.');
  ctx.db.transaction(() => {
    ctx.journal.setMd5(journalId, md5);
    ctx.transition(row.id, 'UPLOADING', { md5 }, ['UPLOADING']);
  })();
}

/** Records a remote copy as this row's live version (from a reply or a listing), in one transaction. */
export function markLive(
  ctx: SyncContext,
  row: FileRow,
  remote: RemoteFile,
  journalId: number,
  outcome: 'LIVE' | 'ADOPTED',
): void {
  ctx.db.transaction(() => {
    ctx.journal.settle(journalId, outcome, remote.id);
    const moved = ctx.transition(
      row.id,
      'LIVE',
      {
        remoteId: remote.id,
        remoteUrl: remote.url,
        remoteMd5: remote.hash,
        remoteSize: remote.size_bytes,
        oldRemoteId: null,
        attempts: 0,
        reasonCode: null,
        reason: null,
        nextRetryAt: null,
        rehashed: false,
      },
      ['UPLOADING'],
    );
    if (moved && row.oldRemoteId !== null && row.oldRemoteId !== remote.id) {
      ctx.trash.add(row.oldRemoteId, `replaced by a new version of ${row.name}`);
    }
  })();
  ctx.wake();
}
