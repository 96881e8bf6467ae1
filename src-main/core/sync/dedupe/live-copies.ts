import { statements } from '../../../shared-node/statements';
import type { SyncContext } from '../context';
import { listBucketCopies, type RemoteCopies } from '../dry-run/remote-copies';

/** A copy live on the service that a new file's bytes (size + md5) can be linked to. */
export interface LiveCopy {
  id: number;
  url: string;
  name: string;
}

/** A bucket's listing is trusted this long; after that a new one is read (pages of 100). */
export const LISTING_TTL_MS = 5 * 60_000;

const listings = new WeakMap<SyncContext, Map<string, { at: number; copies: RemoteCopies }>>();

/**
 * Content dedupe's lookup: first the engine's own LIVE rows in folders of the same bucket (free), then
 * one listing of the bucket, kept for LISTING_TTL_MS. A file deleted elsewhere within that window may
 * be linked to a copy that is gone; the remote index's next walk finds such links (link-integrity).
 */
export async function findLiveCopy(
  ctx: SyncContext,
  bucket: string,
  size: number,
  md5: string,
  exceptId: number,
): Promise<LiveCopy | null> {
  const local = statements(ctx.db)<[string, number, string, number], LiveCopy>(
    `SELECT f.remote_id AS id, f.remote_url AS url, f.name AS name FROM sync_files f
       JOIN sync_folders d ON d.id = f.folder_id
      WHERE d.bucket = ? AND f.state = 'LIVE' AND f.remote_size = ? AND f.remote_md5 = ? AND f.id != ?
        AND f.remote_id IS NOT NULL AND f.remote_url IS NOT NULL LIMIT 1`,
  ).get(bucket, size, md5, exceptId);
  if (local) return local;
  let cache = listings.get(ctx);
  if (!cache) {
    cache = new Map();
    listings.set(ctx, cache);
  }
  let entry = cache.get(bucket);
  if (!entry || ctx.clock.monotonic() - entry.at > LISTING_TTL_MS) {
    const listed = await listBucketCopies(ctx.client, bucket);
    // A failed listing links nothing: the file is sent as without dedupe.
    if (!listed.ok) return null;
    entry = { at: ctx.clock.monotonic(), copies: listed.value };
    cache.set(bucket, entry);
  }
  return entry.copies.find(size, md5, '');
}

/**
 * Local paths other than `exceptId` whose row still points at `remoteId` (linked copies): a mirror
 * delete of one of them must keep the remote while another path points at it.
 */
export function otherPathsOn(ctx: SyncContext, remoteId: number, exceptId: number): string[] {
  return statements(ctx.db)<[number, number], { name: string }>(
    `SELECT name FROM sync_files WHERE remote_id = ? AND id != ? AND state NOT IN ('DELETED', 'DELETING') LIMIT 3`,
  )
    .all(remoteId, exceptId)
    .map((r) => r.name);
}
