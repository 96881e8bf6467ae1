import { ApiFailure } from '../../service/api-error';
import type { SyncContext } from '../context';
import type { Folder } from '../types';
import { sendAgainGone } from './remote-gone';

/**
 * A folder's LIVE rows checked against its bucket's listing (`sync DIR --once` and the CLI's `sync`,
 * which have no remote-index keeper beside them): a row whose remote copy the listing lacks was deleted
 * on the service (a script, the dashboard, another desk's mirror folder) and is sent again
 * (remote-gone.ts), so the run never calls the folder in sync over a dead URL. A listing is read newest
 * first and may skip a file when another is deleted meanwhile, so each row missing from it is asked
 * once more by id: only a 410 GONE sends it again. A listing that fails checks nothing (said in Activity).
 * Cost: one request per 100 files of the bucket, plus one per row the listing lacks.
 */
export async function checkLiveAgainstBucket(
  ctx: SyncContext,
  folder: Folder,
): Promise<{ checked: number; gone: number }> {
  const live = new Map<number, number>();
  for (let afterId = 0; ; ) {
    const page = ctx.files.list({ folderId: folder.id, state: 'LIVE', afterId, limit: 1000 });
    if (page.length === 0) break;
    afterId = page[page.length - 1]!.id;
    for (const r of page) if (r.remoteId !== null) live.set(r.remoteId, r.id);
  }
  if (live.size === 0) return { checked: 0, gone: 0 };
  const missing = new Set(live.keys());
  try {
    for await (const f of ctx.client.listAllFiles({ bucket: folder.bucket })) missing.delete(f.id);
  } catch (e) {
    const message = e instanceof ApiFailure ? e.error.message : String(e);
    ctx.log(
      'bucket-check-skipped',
      `Could not list bucket ${folder.bucket} to check that the files of ${folder.path} are still there (${message}); they are checked at the next run.`,
      { folderId: folder.id },
    );
    return { checked: 0, gone: 0 };
  }
  const gone: number[] = [];
  for (const id of missing) {
    if (ctx.halted()) break;
    const r = await ctx.client.getFile(id);
    if (!r.ok && r.error.code === 'GONE') gone.push(id);
    else if (r.ok && r.value.status === 'DELETED') gone.push(id);
  }
  return {
    checked: live.size,
    gone: gone.length ? sendAgainGone(ctx, gone, { at: ctx.now(), where: 'on the service' }) : 0,
  };
}
