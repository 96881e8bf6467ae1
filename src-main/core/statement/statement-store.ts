import type { Account, UsageSnapshot } from '../../../src-shared/api/file-hosting';
import type { FileLife, MeReadRun, UsageDay } from '../../../src-shared/domain/statement/month-statement';
import type { Db } from '../../shared-node/sqlite';
import { statements } from '../../shared-node/statements';

/** Whose rows: the cache's source (`sandbox` or the base URL) and the client id /me gave. */
export interface StatementAccount {
  source: string;
  clientId: number;
}

interface ReadRow {
  id: number;
  first_ms: number;
  last_ms: number;
  balance_paise: number;
  arrears_paise: number;
  arrears_since: string | null;
  bytes_used: number;
  files_count: number;
  daily_rent_paise: number;
  per_gb_month_paise: number;
}

/** The statement's own tables (migrations.ts): what the app saw of an account over time. */
export function statementStore(db: Db) {
  const prep = statements(db);
  const lastRead = prep<[string, number], ReadRow>(
    'SELECT * FROM statement_me_reads WHERE source = ? AND client_id = ? ORDER BY last_ms DESC, id DESC LIMIT 1',
  );
  return {
    /**
     * A /me read at `atMs` (the service's clock). The same figures as the last read extend its run, so
     * an app that reads /me every minute keeps one row a change, and a credit's window stays exact.
     */
    noteRead(a: StatementAccount, me: Account, atMs: number): void {
      const last = lastRead.get(a.source, a.clientId);
      const same =
        last &&
        last.balance_paise === me.wallet.balance_paise &&
        last.arrears_paise === me.arrears.paise &&
        last.arrears_since === me.arrears.since &&
        last.bytes_used === me.usage.bytes_used &&
        last.files_count === me.usage.files_count &&
        last.daily_rent_paise === me.usage.daily_rent_paise &&
        last.per_gb_month_paise === me.pricing.per_gb_month_paise;
      if (same && atMs >= last.last_ms) {
        prep('UPDATE statement_me_reads SET last_ms = ? WHERE id = ?').run(atMs, last.id);
        return;
      }
      prep(
        `INSERT INTO statement_me_reads (source, client_id, first_ms, last_ms, balance_paise, arrears_paise,
           arrears_since, bytes_used, files_count, daily_rent_paise, per_gb_month_paise)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        a.source,
        a.clientId,
        atMs,
        atMs,
        me.wallet.balance_paise,
        me.arrears.paise,
        me.arrears.since,
        me.usage.bytes_used,
        me.usage.files_count,
        me.usage.daily_rent_paise,
        me.pricing.per_gb_month_paise,
      );
    },
    /** The latest client id read for a source (the statement of an offline app). */
    lastClientId(source: string): number | null {
      const r = prep<[string], { client_id: number }>(
        'SELECT client_id FROM statement_me_reads WHERE source = ? ORDER BY last_ms DESC, id DESC LIMIT 1',
      ).get(source);
      return r?.client_id ?? null;
    },
    reads(a: StatementAccount): MeReadRun[] {
      return prep<[string, number], ReadRow>(
        'SELECT * FROM statement_me_reads WHERE source = ? AND client_id = ? ORDER BY first_ms, id',
      )
        .all(a.source, a.clientId)
        .map((r) => ({
          firstMs: r.first_ms,
          lastMs: r.last_ms,
          balancePaise: r.balance_paise,
          arrearsPaise: r.arrears_paise,
          perGbMonthPaise: r.per_gb_month_paise,
          bytesUsed: r.bytes_used,
        }));
    },
    putDays(a: StatementAccount, days: readonly UsageSnapshot[], seenMs: number): void {
      const put = prep(
        `INSERT INTO statement_usage_days (source, client_id, usage_date, bytes_used, files_count, rent_paise, outcome, seen_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (source, client_id, usage_date) DO UPDATE SET bytes_used = excluded.bytes_used,
           files_count = excluded.files_count, rent_paise = excluded.rent_paise, outcome = excluded.outcome,
           seen_ms = excluded.seen_ms`,
      );
      db.transaction(() => {
        for (const d of days)
          put.run(
            a.source,
            a.clientId,
            d.usage_date,
            d.bytes_used,
            d.files_count,
            d.rent_paise,
            d.outcome,
            seenMs,
          );
      })();
    },
    days(a: StatementAccount): UsageDay[] {
      return prep<
        [string, number],
        { usage_date: string; bytes_used: number; files_count: number; rent_paise: number; outcome: string }
      >('SELECT * FROM statement_usage_days WHERE source = ? AND client_id = ? ORDER BY usage_date')
        .all(a.source, a.clientId)
        .map((d) => ({
          date: d.usage_date,
          bytesUsed: d.bytes_used,
          filesCount: d.files_count,
          rentPaise: d.rent_paise,
          outcome: d.outcome,
        }));
    },
    /** Every file the index holds or saw go from the service, with the watched folder a sync row sent it from. */
    files(indexAccountId: number): FileLife[] {
      return prep<
        [{ a: number }],
        {
          id: number;
          name: string;
          bucket: string;
          extension: string;
          size: number;
          created_ms: number;
          gone_ms: number | null;
          folder: string | null;
        }
      >(
        `WITH lives AS (
           SELECT id, name, bucket, extension, size, created_ms, NULL AS gone_ms
             FROM remote_index_files WHERE account_id = @a
           UNION ALL
           SELECT l.id, l.name, l.bucket, l.extension, l.size, l.created_ms, l.gone_ms
             FROM statement_file_life l
            WHERE l.account_id = @a AND l.gone_ms IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM remote_index_files f WHERE f.account_id = @a AND f.id = l.id))
         SELECT lives.*,
           (SELECT d.path FROM sync_files f JOIN sync_folders d ON d.id = f.folder_id
             WHERE f.remote_id = lives.id LIMIT 1) AS folder
         FROM lives`,
      )
        .all({ a: indexAccountId })
        .map((r) => ({
          id: r.id,
          name: r.name,
          bucket: r.bucket,
          extension: r.extension,
          size: r.size,
          createdMs: r.created_ms,
          goneMs: r.gone_ms,
          folder: r.folder,
        }));
    },
    /** Extra copies of the same bytes (md5 and size) among the live files: what a dedupe removes. */
    duplicates(indexAccountId: number): { extraCopies: number; bytes: number } {
      const r = prep<[number], { extra: number | null; bytes: number | null }>(
        `SELECT sum(n - 1) AS extra, sum((n - 1) * size) AS bytes FROM (
           SELECT count(*) AS n, size FROM remote_index_files WHERE account_id = ? GROUP BY md5, size HAVING n > 1)`,
      ).get(indexAccountId);
      return { extraCopies: r?.extra ?? 0, bytes: r?.bytes ?? 0 };
    },
    /** The service clock's offset, which the removal triggers add to the machine's time. */
    setClockOffset(offsetMs: number): void {
      prep(
        'INSERT INTO statement_clock (id, offset_ms) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET offset_ms = excluded.offset_ms',
      ).run(Math.round(offsetMs));
    },
    /** Flagged days not told yet; marks them told. */
    takeUntold(a: StatementAccount, dates: readonly string[], atMs: number): string[] {
      const put = prep(
        'INSERT INTO statement_flag_alerts (source, client_id, usage_date, at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
      );
      return db.transaction(() => dates.filter((d) => put.run(a.source, a.clientId, d, atMs).changes > 0))();
    },
  };
}
export type StatementStore = ReturnType<typeof statementStore>;
