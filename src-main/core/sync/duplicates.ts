import type { RemoteFile } from '../../../src-shared/api/file-hosting';
import { plural } from '../../../src-shared/domain/words';
import { ApiFailure } from '../service/api-error';
import type { SyncContext } from './context';
import { contentKey } from './upload/reconcile';

/** Remote files of one bucket with the same name, size and md5: one is kept, the others are extra copies. */
export interface DuplicateGroup {
  bucket: string;
  name: string;
  size: number;
  md5: string;
  keepId: number;
  extraIds: number[];
}

/**
 * Lists every bucket of the watched folders and reports copies of the same file, whatever made them
 * (another machine, an older install, a lost reply before this engine). The copy a local row points
 * to is the one kept; otherwise the oldest.
 */
export async function findDuplicates(
  ctx: SyncContext,
): Promise<{ groups: DuplicateGroup[]; error?: { code: string; message: string } }> {
  const buckets = [...new Set(ctx.folders.list().map((f) => f.bucket))];
  const owned = ctx.files.remoteIdsOwned();
  const groups: DuplicateGroup[] = [];
  for (const bucket of buckets) {
    const byKey = new Map<string, RemoteFile[]>();
    try {
      for await (const f of ctx.client.listAllFiles({ bucket })) {
        const k = contentKey(f.name, f.size_bytes, f.hash);
        byKey.set(k, [...(byKey.get(k) ?? []), f]);
      }
    } catch (e) {
      const error = e instanceof ApiFailure ? e.error : { code: 'LIST-FAILED', message: String(e) };
      return { groups, error: { code: error.code, message: error.message } };
    }
    for (const copies of byKey.values()) {
      if (copies.length < 2) continue;
      const sorted = copies.sort((a, b) => a.id - b.id);
      const keep = sorted.find((f) => owned.has(f.id)) ?? sorted[0]!;
      groups.push({
        bucket,
        name: keep.name,
        size: keep.size_bytes,
        md5: keep.hash,
        keepId: keep.id,
        extraIds: sorted.filter((f) => f.id !== keep.id).map((f) => f.id),
      });
    }
  }
  return { groups };
}

/** Queues the extra copies for deletion (through the trash, so a failure is retried, never lost). */
export function removeDuplicates(ctx: SyncContext, groups: readonly DuplicateGroup[]): number {
  const owned = ctx.files.remoteIdsOwned();
  let n = 0;
  ctx.db.transaction(() => {
    for (const g of groups) {
      for (const id of g.extraIds) {
        if (owned.has(id)) continue; // never delete a copy a local file points to
        ctx.trash.add(id, `duplicate of ${g.name} in ${g.bucket}`);
        n++;
      }
    }
  })();
  if (n > 0) ctx.log('duplicates', `Removing ${plural(n, 'duplicate remote file')}.`);
  ctx.wake();
  return n;
}
