import { plural } from '../../../../src-shared/domain/words';
import type { SyncContext } from '../context';
import { describeAccount, type SyncAccount } from '../state/account-store';
import type { FileRow, FileState } from '../types';

/** reason_code of a row being checked against a new account (read by the reconciliation). */
export const ACCOUNT_CHANGED = 'ACCOUNT-CHANGED';

const NO_REMOTE = {
  remoteId: null,
  remoteUrl: null,
  remoteMd5: null,
  remoteSize: null,
  oldRemoteId: null,
} as const;

/** Rows that were (or were about to be) sent: each is checked against the new account's listing. */
const CHECKED: readonly FileState[] = ['UPLOADING', 'LIVE', 'QUEUED', 'PAUSED', 'FAILED'];

export interface AccountMove {
  /** Rows now UPLOADING with an open intent, settled by the next reconciliation (one listing per bucket). */
  checking: number;
  /** Remote deletes of the old account that were dropped (trash entries and mirror deletes). */
  deletesDropped: number;
}

/**
 * The rows were synced with another account (or with one not on record): their remote ids, open
 * intents and pending remote deletes mean nothing on this one, and an id of the old account may name
 * another file here. In one transaction, before anything is sent:
 * - open intents of the old account are settled ACCOUNT-CHANGED; the trash is emptied; DELETING rows
 *   end DELETED (a file deleted locally while on the old account is never deleted on the new one);
 * - every row that was live or on its way (with a known md5) becomes UPLOADING with a new intent
 *   (bucket, name, size, md5): the reconciliation lists each bucket once, adopts a remote file with
 *   the same name, size and md5 (not sent again) and queues the rest, which upload-one sends with the
 *   stored md5 once it has seen size, mtime and inode unchanged (else the file is read anew);
 * - every remote id is forgotten, and the new account recorded.
 */
export function moveToAccount(ctx: SyncContext, from: SyncAccount | null, to: SyncAccount): AccountMove {
  const out: AccountMove = { checking: 0, deletesDropped: 0 };
  const checkingReason = `Checking whether ${describeAccount(to)} already holds this file before sending it.`;
  ctx.db.transaction(() => {
    for (const entry of ctx.journal.unsettled()) ctx.journal.settle(entry.id, ACCOUNT_CHANGED);
    out.deletesDropped += ctx.trash.clear();
    eachRow(ctx, 'DELETING', (r) => {
      out.deletesDropped++;
      ctx.transition(
        r.id,
        'DELETED',
        {
          ...NO_REMOTE,
          reason: `${r.reason ?? 'Deleted locally.'} Not deleted on ${describeAccount(to)}: it was deleted while syncing with another account.`,
        },
        ['DELETING'],
      );
    });
    // UPLOADING first: rows moved into UPLOADING below must not be visited twice.
    for (const state of CHECKED) {
      eachRow(ctx, state, (r) => {
        const folder = ctx.folder(r.folderId);
        const md5 = r.md5 || r.remoteMd5;
        if (!folder || !md5 || r.size === null) {
          // Nothing to match by: read anew (a live one) or send as it is (its checks run before the POST).
          if (state === 'LIVE' || state === 'UPLOADING')
            ctx.transition(
              r.id,
              state === 'LIVE' ? 'NEW' : 'QUEUED',
              { ...NO_REMOTE, md5: null, notBefore: null },
              [state],
            );
          return;
        }
        ctx.transition(
          r.id,
          'UPLOADING',
          {
            ...NO_REMOTE,
            md5,
            attempts: 0,
            nextRetryAt: null,
            rehashed: false,
            reasonCode: ACCOUNT_CHANGED,
            reason: checkingReason,
          },
          [state],
        );
        ctx.journal.open({ fileId: r.id, bucket: folder.bucket, name: r.name, size: r.size, md5 });
        out.checking++;
      });
    }
    ctx.files.forgetRemotes();
    ctx.accounts.set(to);
  })();
  ctx.log(
    'account-changed',
    `${from ? `The files were synced with ${describeAccount(from)}` : 'No account was on record for the synced files'}; now ${describeAccount(to)}. ` +
      `${plural(out.checking, 'file')} ${out.checking === 1 ? 'is' : 'are'} checked against its listing before anything is sent (files it already holds are adopted, the rest uploaded)` +
      (out.deletesDropped
        ? `; ${plural(out.deletesDropped, 'remote delete')} meant for the previous account were dropped.`
        : '.'),
  );
  return out;
}

/** Visits every row in a state, in pages by id (the visitor may move the row out of the state). */
function eachRow(ctx: SyncContext, state: FileState, visit: (r: FileRow) => void) {
  let afterId = 0;
  for (;;) {
    const rows = ctx.files.list({ state, afterId, limit: 1000 });
    if (rows.length === 0) return;
    afterId = rows[rows.length - 1]!.id;
    for (const r of rows) visit(r);
  }
}
