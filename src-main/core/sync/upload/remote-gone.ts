import { formatIstTime } from '../../../../src-shared/domain/time-format';
import type { SyncContext } from '../context';
import { REMOVED_BY_YOU } from '../reason-codes';
import { syncedFiles } from '../state/synced-files';

/** The remote fields of a row whose copy on the service is no more. */
const NO_REMOTE = { remoteId: null, remoteUrl: null, remoteMd5: null, remoteSize: null } as const;

/**
 * A live row's remote copy is gone from the service (deleted in the Files view, by another install,
 * on the dashboard, a 410): the local file is the source in both folder modes, so it is sent again. The
 * row goes back to NEW without its remote, so it is read and uploaded as a new file (a new URL; never
 * an adoption of someone else's copy), and Activity says why. Rows whose remote id is not among
 * `remoteIds`, or that are not LIVE, are left alone. Returns the rows sent again.
 */
export function sendAgainGone(
  ctx: SyncContext,
  remoteIds: readonly number[],
  /** Where it was deleted, as it reads after "deleted": "in this app's Files view", "on the service". */
  why: { at: number; where: string; chosen?: boolean },
): number {
  const rows = syncedFiles(ctx.db).liveOn(remoteIds);
  let n = 0;
  for (const r of rows) {
    const moved = ctx.transition(
      r.id,
      'NEW',
      { ...NO_REMOTE, md5: null, oldRemoteId: null, reasonCode: null, reason: null, notBefore: null },
      ['LIVE'],
    );
    if (!moved) continue;
    n++;
    // A resend the person chose (the delete dialog's "send them again") is news, not a warning (issue 34).
    ctx.log(
      why.chosen ? 'resend-chosen' : 'remote-gone',
      `${r.name} was deleted ${why.where} (seen ${formatIstTime(why.at)}); sending it again${why.chosen ? ', as you chose' : ''}. Its old link (${r.remoteUrl}) no longer answers.`,
      { folderId: r.folderId, fileId: r.id },
    );
  }
  if (n > 0) ctx.wake();
  return n;
}

/**
 * "Delete and stop syncing them" (the Files view): the rows leave the sync, the local files stay as
 * they are and are never sent again, and the folder lists them as removed from the CDN by you
 * (SKIPPED, REMOVED-BY-YOU). Written before the deletes are sent, so a delete's reply can never be
 * read as "gone, send again". Only LIVE rows move; returns how many did.
 */
export function stopSyncing(ctx: SyncContext, fileIds: readonly number[], at: number): number {
  let n = 0;
  ctx.db.transaction(() => {
    for (const id of fileIds) {
      const moved = ctx.transition(
        id,
        'SKIPPED',
        {
          ...NO_REMOTE,
          oldRemoteId: null,
          nextRetryAt: null,
          reasonCode: REMOVED_BY_YOU,
          reason: `Removed from the CDN by you on ${formatIstTime(at)}; the local file is kept and not sent again.`,
        },
        ['LIVE'],
      );
      if (moved) n++;
    }
  })();
  return n;
}
