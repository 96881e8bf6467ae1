import { join } from 'node:path';
import type { RemoteFile } from '../../../../src-shared/api/file-hosting';
import type { SyncContext } from '../context';
import { inspectPath, sameStat } from '../local/inspect';
import { localGone, observe } from '../local/observe';
import { openInFolder, pathOfHandle } from '../local/open-in-folder';
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
      // '' = hashed while sending: set before the last bytes leave (md5Later below).
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

  const hashing = md5 === null ? ctx.hasher.md5(pathOfHandle(handle, abs)) : null;
  let res: Awaited<ReturnType<typeof ctx.client.uploadFile>> | { thrown: unknown };
  try {
    res = await ctx.client.uploadFile({
      path: abs,
      handle,
      size,
      name: row.name,
      bucket: folder.bucket,
      ...(hashing === null
        ? { md5: md5! }
        : { md5Later: hashAlongside(ctx, row.id, hashing, size, journalId) }),
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
    // The md5 worker may still read through the handle's /proc entry after a refused upload.
    void Promise.resolve(hashing).finally(() => handle.close().catch(() => undefined));
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
 * The md5 of a large new file, read by the hasher's worker while the upload reads the same file
 * (prepare.ts decides which files). It is journaled before the body's last bytes are sent, so a copy
 * the service may have stored always has its md5 on record for the reconciliation; a file that changed
 * or could not be read fails the body (FILE-CHANGED: read anew). The service checks the bytes it got
 * against this md5, so a file changed under the upload ends HASH-MISMATCH, never a wrong copy.
 */
function hashAlongside(
  ctx: SyncContext,
  fileId: number,
  hashing: ReturnType<SyncContext['hasher']['md5']>,
  size: number,
  journalId: number,
): () => Promise<string> {
  return async () => {
    const h = await hashing;
    if (!h.ok) throw new Error(`The file could not be read while it was sent: ${h.error.message}`);
    if (h.value.bytes !== size) throw new Error('The file changed while it was sent.');
    ctx.db.transaction(() => {
      ctx.journal.setMd5(journalId, h.value.md5);
      ctx.transition(fileId, 'UPLOADING', { md5: h.value.md5 }, ['UPLOADING']);
    })();
    return h.value.md5;
  };
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
