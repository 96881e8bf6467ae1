import type { RemoteFile } from '../../../../src-shared/api/file-hosting';
import { plural } from '../../../../src-shared/domain/words';
import { ApiFailure } from '../../service/api-error';
import { ACCOUNT_CHANGED } from '../account/account-change';
import type { SyncContext } from '../context';
import type { JournalEntry } from '../state/journal-store';
import { RECORD_FAILED, scheduleRetry } from './on-upload-error';
import { markLive } from './upload-one';

export const contentKey = (name: string, size: number, md5: string) => `${size}:${md5}:${name}`;

/**
 * Settles every open journal entry (an upload whose outcome is unknown after a crash, a timeout or a
 * dropped connection) by listing its bucket once and matching name, size and md5. A match not yet
 * owned by another row is adopted as the file's live copy; no match means nothing was stored, and the
 * file is retried. Nothing is sent again before this has run. Returns false when a listing failed.
 */
export async function reconcileJournal(ctx: SyncContext, inFlight: ReadonlySet<number>): Promise<boolean> {
  const open = ctx.journal.unsettled().filter((e) => !inFlight.has(e.fileId));
  if (open.length === 0) return true;
  const buckets = [...new Set(open.map((e) => e.bucket))];
  let allListed = true;
  for (const bucket of buckets) {
    if (ctx.halted()) return false;
    const byKey = new Map<string, RemoteFile[]>();
    try {
      for await (const f of ctx.client.listAllFiles({ bucket })) {
        const k = contentKey(f.name, f.size_bytes, f.hash);
        const list = byKey.get(k);
        if (list) list.push(f);
        else byKey.set(k, [f]);
      }
    } catch (e) {
      allListed = false;
      if (e instanceof ApiFailure && (e.error.reaction === 'auth' || e.error.reaction === 'closed')) {
        ctx.stopFor(e.error.reaction, e.error);
        return false;
      }
      const message = e instanceof ApiFailure ? e.error.message : String(e);
      ctx.events.emit('error', {
        folderId: null,
        code: 'RECONCILE-FAILED',
        message: `Could not list bucket ${bucket} to settle uploads: ${message}`,
      });
      // Each failed listing counts on the rows it was to settle: after the policy's attempts they end
      // FAILED saying why, so a run (`sync --once`) ends instead of listing again for ever.
      for (const entry of open.filter((e) => e.bucket === bucket)) {
        try {
          settleFailed(ctx, entry, {
            code: RECONCILE_FAILED,
            reason: `Its outcome could not be checked: listing bucket ${bucket} failed (${message}).`,
            log: `listing its bucket to check its upload failed (${message})`,
          });
        } catch {
          // Not even that could be written: the next listing tries again.
        }
      }
      continue;
    }
    const owned = ctx.files.remoteIdsOwned();
    const moved = { adopted: 0, queued: 0 };
    for (const entry of open.filter((e) => e.bucket === bucket)) {
      try {
        settleEntry(entry);
      } catch (e) {
        // A write refused (the database busy or failing): this entry waits for the next listing,
        // a bounded number of times (settleFailed), and the others go on.
        allListed = false;
        try {
          const error = e instanceof Error ? e.message : String(e);
          settleFailed(ctx, entry, {
            code: RECORD_FAILED,
            reason: `Its outcome could not be recorded: ${error}.`,
            log: `to record its upload (${error})`,
          });
        } catch {
          // Not even that could be written: the next listing tries again.
        }
      }
    }
    function settleEntry(entry: JournalEntry) {
      const row = ctx.files.get(entry.fileId);
      const candidates = (byKey.get(contentKey(entry.name, entry.size, entry.md5)) ?? [])
        .filter((f) => !owned.has(f.id))
        .sort((a, b) => a.id - b.id);
      const match = candidates[0];
      if (row?.state !== 'UPLOADING') {
        // The row moved on (deleted, changed); a stray copy is left for the duplicate report.
        ctx.journal.settle(entry.id, 'ABANDONED', match?.id ?? null);
        return;
      }
      const accountCheck = row.reasonCode === ACCOUNT_CHANGED;
      if (match) {
        owned.add(match.id);
        markLive(ctx, row, match, entry.id, 'ADOPTED');
        if (accountCheck) moved.adopted++;
        else
          ctx.log('adopted', `${row.name} had arrived before the reply was lost; not sent again.`, {
            folderId: row.folderId,
            fileId: row.id,
          });
      } else if (accountCheck) {
        // Not on this account: sent as a new upload, with the md5 on record (upload-one checks the stat first).
        ctx.db.transaction(() => {
          ctx.journal.settle(entry.id, 'NOT-FOUND');
          ctx.transition(row.id, 'QUEUED', { reasonCode: null, reason: null, nextRetryAt: null }, [
            'UPLOADING',
          ]);
        })();
        moved.queued++;
      } else {
        ctx.db.transaction(() => {
          ctx.journal.settle(entry.id, 'NOT-FOUND');
          scheduleRetry(ctx, row, {
            code: row.reasonCode ?? 'NETWORK',
            message: row.reason ?? 'The upload did not arrive.',
          });
        })();
      }
    }
    if (moved.adopted || moved.queued) {
      ctx.log(
        'account-checked',
        `Bucket ${bucket}: ${plural(moved.adopted, 'file')} already on this account ${moved.adopted === 1 ? 'was' : 'were'} adopted (not sent again), ${moved.queued} will be uploaded.`,
      );
    }
  }
  ctx.wake();
  return allListed;
}

/** An upload whose outcome its bucket's listing could not check (the listing failed every time). */
export const RECONCILE_FAILED = 'RECONCILE-FAILED';

/**
 * An entry that could not be settled (its bucket's listing failed, or a write was refused): counted on
 * its row; the next listing tries again, until the row's attempts are used up. Then the row ends FAILED
 * for good, saying why, and the entry is closed, so a run ends. The service may hold the copy that could
 * not be checked or recorded: the duplicate report finds it.
 */
function settleFailed(
  ctx: SyncContext,
  entry: JournalEntry,
  why: { code: string; reason: string; log: string },
): void {
  const row = ctx.files.get(entry.fileId);
  if (row?.state !== 'UPLOADING') return;
  const attempts = row.attempts + 1;
  const { reason } = why;
  if (attempts < ctx.options.backoff.maxAttempts) {
    // A failed listing keeps the row's reason (why it was sent, an account check): only counted.
    const patch = why.code === RECONCILE_FAILED ? { attempts } : { attempts, reasonCode: why.code, reason };
    ctx.transition(row.id, 'UPLOADING', patch, ['UPLOADING']);
    return;
  }
  ctx.db.transaction(() => {
    ctx.journal.settle(entry.id, 'FAILED');
    ctx.transition(
      row.id,
      'FAILED',
      {
        attempts,
        reasonCode: why.code,
        reason: `${reason} The service may hold a copy (the duplicate report shows it).`,
        nextRetryAt: null,
      },
      ['UPLOADING'],
    );
  })();
  ctx.log('gave-up', `${row.name}: gave up after ${attempts} attempts ${why.log}.`, {
    folderId: row.folderId,
    fileId: row.id,
  });
}
