import type { Account } from '../../../src-shared/api/file-hosting';
import type { Statement } from '../../../src-shared/contract/statement';
import { DAY_MS, parseIst } from '../../../src-shared/domain/ist-time';
import { USAGE_DAYS_MAX } from '../../../src-shared/domain/limits';
import { buildStatement, monthOf } from '../../../src-shared/domain/statement/month-statement';
import { type AppError, appError, err, ok, type Result } from '../../../src-shared/errors';
import type { Db } from '../../shared-node/sqlite';
import { indexStore } from '../remote-index/index-store';
import { createRemoteIndex } from '../remote-index/remote-index';
import type { FileApiClient } from '../service/file-api-client';
import { statementStore } from './statement-store';

export interface StatementSource {
  db: Db;
  /** The service's client; null offline (the statement is told from what the app holds). */
  client: FileApiClient | null;
  /** The cache's source of the connection (`sandbox` or the base URL). */
  source: string;
  /** The service's identity of the remote index (sync/account/service-identity.ts). */
  service: string;
  /** The service's clock now. */
  now(): number;
  /** Read /me, /usage and the index's new files first. */
  refresh: boolean;
  /** With `refresh`, read /me too (default); the app's daily check leaves it to the reads it makes anyway. */
  readMe?: boolean;
  /** Where a /me answer goes when the caller does not record it itself (the CLI). */
  noteMe?(me: Account): void;
  /** Waits until the /me reads made so far are kept (the app keeps them in the background). */
  settle?(): Promise<void>;
}

/**
 * One month's statement of the connected account: /me (recorded as a read), the usage days the month
 * needs (kept), the index's new files, then the statement from what the app holds
 * (src-shared/domain/statement/month-statement.ts).
 */
export async function statementOfMonth(
  o: StatementSource,
  month: string | undefined,
): Promise<Result<Statement, AppError>> {
  const store = statementStore(o.db);
  let me: Account | null = null;
  if (o.refresh && o.client && o.readMe !== false) {
    const r = await o.client.me({ lane: 'user' });
    if (!r.ok) return err(appError(r.error.code, r.error.message));
    me = r.value;
    o.noteMe?.(me);
  }
  const clientId = me?.client.id ?? store.lastClientId(o.source);
  if (clientId === null)
    return err(
      appError(
        'STATEMENT-NO-ACCOUNT',
        'The app has not read this account yet: connect once, then ask again.',
      ),
    );
  const account = { source: o.source, clientId };
  const nowMs = o.now();
  const wanted = month ?? monthOf(nowMs);
  const start = parseIst(`${wanted}-01 00:00`)!;
  if (start > nowMs)
    return err(
      appError(
        'VALIDATION',
        `${wanted} has not begun on the service's clock (it is ${monthOf(nowMs)} there).`,
      ),
    );
  if (o.refresh && o.client) {
    // The days from the month's first to yesterday, at most the 90 the service keeps.
    const days = Math.min(USAGE_DAYS_MAX, Math.max(1, Math.ceil((nowMs - start) / DAY_MS) + 1));
    const u = await o.client.usage(days, { lane: 'user' });
    if (!u.ok) return err(appError(u.error.code, u.error.message));
    store.putDays(account, u.value.snapshots, nowMs);
    const index = createRemoteIndex(o.db).forAccount({ service: o.service, clientId });
    // New files and deletes inside the pages read; a failure leaves the index as it was (said below).
    await index.refresh(o.client, { lane: 'user' });
  }
  await o.settle?.();
  const indexAccountId = indexStore(o.db).accountId({ service: o.service, clientId });
  return ok(
    buildStatement({
      account: { name: me?.client.name ?? '', clientId, service: o.service },
      month: wanted,
      nowMs,
      reads: store.reads(account),
      days: store.days(account),
      files: store.files(indexAccountId),
      duplicates: store.duplicates(indexAccountId),
    }),
  );
}
