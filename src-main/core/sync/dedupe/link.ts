import type { SyncContext } from '../context';
import type { FileRow, Folder } from '../types';
import { findLiveCopy } from './live-copies';

/**
 * Content dedupe: HASHING -> LIVE with the URL of a copy of the same bytes already live in the bucket,
 * no upload and no extra rent. The row says so in its reason (code LINKED). Returns whether it linked.
 */
export async function linkToLiveCopy(
  ctx: SyncContext,
  folder: Folder,
  row: FileRow,
  seen: { size: number; mtimeMs: number; inode: number; md5: string },
): Promise<boolean> {
  const copy = await findLiveCopy(ctx, folder.bucket, seen.size, seen.md5, row.id);
  if (!copy || ctx.files.get(row.id)?.state !== 'HASHING') return false;
  const linked = ctx.transition(
    row.id,
    'LIVE',
    {
      ...seen,
      remoteId: copy.id,
      remoteUrl: copy.url,
      remoteMd5: seen.md5,
      remoteSize: seen.size,
      oldRemoteId: null,
      reasonCode: 'LINKED',
      reason: `Linked to the existing copy ${copy.url} (${copy.name}, same bytes): not uploaded, no extra rent.`,
    },
    ['HASHING'],
  );
  if (!linked) return false;
  ctx.log('linked', `${row.name} has the same bytes as ${copy.name}, already live: linked, not uploaded.`, {
    folderId: row.folderId,
    fileId: row.id,
  });
  return true;
}
