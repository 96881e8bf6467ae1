import { backoffDelayMs } from '../../service/retry-policy';
import type { SyncContext } from '../context';
import { otherPathsOn } from '../dedupe/live-copies';
import { MIRROR_DELETED } from '../reason-codes';

/**
 * Sends the deletes: replaced versions and removed duplicates (the trash), and the remotes of files
 * deleted locally in mirror folders (DELETING rows). 410 GONE means already deleted: done.
 * Deletes keep working while uploads are paused for money, as the service allows.
 */
export async function runDeletes(ctx: SyncContext, batch = 8): Promise<void> {
  for (const item of ctx.trash.due(batch)) {
    if (ctx.halted()) return;
    if (keptForLinks(ctx, item.remoteId, null, item.reason)) {
      ctx.trash.done(item.remoteId);
      continue;
    }
    const res = await ctx.client.deleteFile(item.remoteId);
    if (res.ok || res.error.code === 'GONE') {
      ctx.trash.done(item.remoteId);
      ctx.log('remote-deleted', `Deleted remote file ${item.remoteId} (${item.reason}).`);
    } else if (res.error.reaction === 'auth' || res.error.reaction === 'closed') {
      ctx.stopFor(res.error.reaction, res.error);
      return;
    } else if (item.attempts + 1 >= ctx.options.backoff.maxAttempts) {
      ctx.trash.done(item.remoteId);
      ctx.log(
        'delete-gave-up',
        `Could not delete remote file ${item.remoteId} (${item.reason}): ${res.error.message}`,
      );
    } else {
      ctx.trash.later(
        item.remoteId,
        ctx.now() + backoffDelayMs(item.attempts + 1, ctx.options.backoff, res.error.retryAfterMs),
      );
    }
  }
  for (const row of ctx.files.inState('DELETING', batch, { dueBy: ctx.now() })) {
    if (ctx.halted()) return;
    if (row.remoteId === null) {
      ctx.transition(row.id, 'DELETED', {}, ['DELETING']);
      continue;
    }
    const others = otherPathsOn(ctx, row.remoteId, row.id);
    if (others.length) {
      // Content dedupe linked several paths to one remote: it goes with the last of them.
      ctx.transition(
        row.id,
        'DELETED',
        {
          reason: `${row.reason ?? 'Deleted locally.'} The remote copy is kept: ${others.join(', ')} still points at it.`,
        },
        ['DELETING'],
      );
      continue;
    }
    const res = await ctx.client.deleteFile(row.remoteId);
    if (res.ok || res.error.code === 'GONE') {
      ctx.transition(
        row.id,
        'DELETED',
        {
          reasonCode: MIRROR_DELETED,
          reason: `${row.reason ?? 'Deleted locally.'} The remote copy was deleted (mirror folder).`,
        },
        ['DELETING'],
      );
    } else if (res.error.reaction === 'auth' || res.error.reaction === 'closed') {
      ctx.stopFor(res.error.reaction, res.error);
      return;
    } else {
      const attempts = row.attempts + 1;
      ctx.transition(
        row.id,
        'DELETING',
        {
          attempts,
          notBefore: ctx.now() + backoffDelayMs(attempts, ctx.options.backoff, res.error.retryAfterMs),
          reasonCode: res.error.code,
        },
        ['DELETING'],
      );
    }
  }
}

/** A replaced or duplicate remote that a linked path still points at is kept (content dedupe). */
function keptForLinks(ctx: SyncContext, remoteId: number, exceptId: number | null, why: string): boolean {
  const others = otherPathsOn(ctx, remoteId, exceptId ?? -1);
  if (!others.length) return false;
  ctx.log('remote-kept', `Kept remote file ${remoteId} (${why}): ${others.join(', ')} still points at it.`);
  return true;
}
