import type { ApiError } from '../../service/api-error';
import { backoffDelayMs } from '../../service/retry-policy';
import type { SyncContext } from '../context';
import type { FileRow } from '../types';

/**
 * Whether the service may have stored the bytes although no success reply arrived: a dropped
 * connection, a timeout, an unreadable reply, a 5xx other than the documented STORAGE-FAILED
 * ("nothing saved"). Such an upload is settled by listing the bucket, never by sending again.
 */
export function isAmbiguous(e: ApiError): boolean {
  if (e.code === 'NETWORK' || e.code === 'TIMEOUT' || e.code === 'BAD-REPLY' || e.code === 'ABORTED')
    return true;
  return e.status !== undefined && e.status >= 500 && e.code !== 'STORAGE-FAILED';
}

/** Applies the one reaction of an upload's failure to its row; the journal entry `journalId` is open. */
export function reactToUploadError(ctx: SyncContext, row: FileRow, journalId: number, e: ApiError): void {
  const ref = { folderId: row.folderId, fileId: row.id };
  if (e.reaction === 'retry' && isAmbiguous(e)) {
    awaitListing(ctx, row, e.code, e.message);
    return;
  }
  ctx.journal.settle(journalId, 'FAILED');
  switch (e.reaction) {
    case 'retry':
      scheduleRetry(ctx, row, e);
      return;
    case 'pause':
      ctx.transition(row.id, 'PAUSED', { reasonCode: e.code, reason: e.message }, ['UPLOADING']);
      ctx.pauseForAccount(e);
      return;
    case 'auth':
    case 'closed':
      ctx.transition(row.id, 'QUEUED', { reasonCode: e.code, reason: e.message }, ['UPLOADING']);
      ctx.stopFor(e.reaction, e);
      return;
    case 'reject':
      ctx.transition(row.id, 'FAILED', { reasonCode: e.code, reason: e.message, nextRetryAt: null }, [
        'UPLOADING',
      ]);
      ctx.log('rejected', `${row.name}: ${e.message}`, ref);
      return;
    case 'rehash':
      if (!row.rehashed) {
        ctx.transition(
          row.id,
          'NEW',
          { rehashed: true, notBefore: null, md5: null, reasonCode: e.code, reason: e.message },
          ['UPLOADING'],
        );
        ctx.wake();
      } else {
        ctx.transition(
          row.id,
          'FAILED',
          {
            reasonCode: e.code,
            reason: `${e.message} It failed again after reading the file anew.`,
            nextRetryAt: null,
          },
          ['UPLOADING'],
        );
      }
      return;
  }
}

/** A write about an upload's outcome was refused (the database): the listing settles it again. */
export const RECORD_FAILED = 'RECORD-FAILED';

/**
 * The upload's outcome is unknown (no reply, a reply that could not be read, a call or a write that
 * threw after the bytes may have left): the row stays UPLOADING with its journal entry open and says
 * why, and the reconciliation's listing decides (adopted as LIVE, or FAILED with its retry). Never sent
 * again before that: the API has no idempotency key.
 */
export function awaitListing(ctx: SyncContext, row: FileRow, code: string, message: string): void {
  ctx.transition(
    row.id,
    'UPLOADING',
    { reasonCode: code, reason: `${message} Checking whether it arrived before sending again.` },
    ['UPLOADING'],
  );
  ctx.requestReconcile();
}

/** FAILED with the next retry time stored (and shown), or for good once the attempts are used up. */
export function scheduleRetry(
  ctx: SyncContext,
  row: FileRow,
  e: { code: string; message: string; retryAfterMs?: number },
): void {
  const attempts = row.attempts + 1;
  const { backoff } = ctx.options;
  if (attempts >= backoff.maxAttempts) {
    ctx.transition(row.id, 'FAILED', {
      attempts,
      reasonCode: e.code,
      // What happened only: what comes next (no retry, the Retry button) is worded where it is shown.
      reason: e.message,
      nextRetryAt: null,
    });
    ctx.log('gave-up', `${row.name}: gave up after ${attempts} attempts (${e.code}).`, {
      folderId: row.folderId,
      fileId: row.id,
    });
    return;
  }
  const at = ctx.now() + backoffDelayMs(attempts, backoff, e.retryAfterMs);
  ctx.transition(row.id, 'FAILED', { attempts, reasonCode: e.code, reason: e.message, nextRetryAt: at });
}
