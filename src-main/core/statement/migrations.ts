import type { Migration } from '../../shared-node/sqlite';

/**
 * The statement (ids 500-599 of the app database, issue 35): what the app saw of an account over
 * time, kept so a month can be told afterwards (docs/statement.md).
 * - `statement_me_reads`: every /me read, one row per run of reads with the same figures
 *   (`first_ms`..`last_ms`, the service's clock): a credit to the wallet shows as a rise between two.
 * - `statement_usage_days`: every /usage day read (the service keeps 90 days; the statement keeps all).
 * - `statement_file_life`: every file that left the remote index, with when it was created (the
 *   service's date) and when the index saw it go from the service (`gone_ms`, the service's clock), so
 *   the bytes live at any midnight are known after the index row is gone (the live ones are the index's
 *   own rows). Filled by triggers on the index's tables, so no path that removes a row (refresh, walk,
 *   the follower, a bulk delete) can miss it, and a fill of the index pays nothing.
 * - `statement_clock`: the service clock's offset, kept by the app, that the triggers add to the
 *   machine's time of a removal.
 * - `statement_flag_alerts`: the flagged days already told to the user (one alert each).
 */
export const STATEMENT_MIGRATIONS: Migration[] = [
  {
    id: 500,
    name: 'statement: /me reads, usage days, file lives, the flagged days told',
    up: `
      CREATE TABLE statement_me_reads (
        id INTEGER PRIMARY KEY,
        source TEXT NOT NULL,
        client_id INTEGER NOT NULL,
        first_ms INTEGER NOT NULL,
        last_ms INTEGER NOT NULL,
        balance_paise INTEGER NOT NULL,
        arrears_paise INTEGER NOT NULL,
        arrears_since TEXT,
        bytes_used INTEGER NOT NULL,
        files_count INTEGER NOT NULL,
        daily_rent_paise INTEGER NOT NULL,
        per_gb_month_paise INTEGER NOT NULL
      );
      CREATE INDEX statement_me_reads_by_time ON statement_me_reads (source, client_id, first_ms);
      CREATE TABLE statement_usage_days (
        source TEXT NOT NULL,
        client_id INTEGER NOT NULL,
        usage_date TEXT NOT NULL,
        bytes_used INTEGER NOT NULL,
        files_count INTEGER NOT NULL,
        rent_paise INTEGER NOT NULL,
        outcome TEXT NOT NULL,
        seen_ms INTEGER NOT NULL,
        PRIMARY KEY (source, client_id, usage_date)
      ) WITHOUT ROWID;
      CREATE TABLE statement_file_life (
        account_id INTEGER NOT NULL,
        id INTEGER NOT NULL,
        name TEXT NOT NULL,
        bucket TEXT NOT NULL,
        extension TEXT NOT NULL,
        size INTEGER NOT NULL,
        created_ms INTEGER NOT NULL,
        gone_ms INTEGER,
        PRIMARY KEY (account_id, id)
      ) WITHOUT ROWID;
      CREATE TABLE statement_clock (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        offset_ms INTEGER NOT NULL
      );
      CREATE TABLE statement_flag_alerts (
        source TEXT NOT NULL,
        client_id INTEGER NOT NULL,
        usage_date TEXT NOT NULL,
        at INTEGER NOT NULL,
        PRIMARY KEY (source, client_id, usage_date)
      ) WITHOUT ROWID;
      -- A file leaves the index: its row is kept here. It went from the service when remote_index_gone
      -- says so (noted before, as clearFiles does, or after, as removeOne does); otherwise the index was
      -- only forgotten and gone_ms stays null (such a row is not read). Only removals pay: a fill of the
      -- index writes nothing here.
      CREATE TRIGGER statement_file_left BEFORE DELETE ON remote_index_files BEGIN
        INSERT INTO statement_file_life (account_id, id, name, bucket, extension, size, created_ms, gone_ms)
          VALUES (OLD.account_id, OLD.id, OLD.name, OLD.bucket, OLD.extension, OLD.size, OLD.created_ms,
            (SELECT g.at + coalesce((SELECT offset_ms FROM statement_clock WHERE id = 1), 0)
               FROM remote_index_gone g WHERE g.account_id = OLD.account_id AND g.id = OLD.id))
          ON CONFLICT (account_id, id) DO UPDATE SET
            name = excluded.name, bucket = excluded.bucket, extension = excluded.extension,
            size = excluded.size, created_ms = excluded.created_ms, gone_ms = excluded.gone_ms;
      END;
      -- remote_index_gone is written only by the removals that mean "gone from the service".
      CREATE TRIGGER statement_file_gone AFTER INSERT ON remote_index_gone BEGIN
        UPDATE statement_file_life
          SET gone_ms = NEW.at + coalesce((SELECT offset_ms FROM statement_clock WHERE id = 1), 0)
          WHERE account_id = NEW.account_id AND id = NEW.id AND gone_ms IS NULL;
      END;
      CREATE TRIGGER statement_file_gone_again AFTER UPDATE ON remote_index_gone BEGIN
        UPDATE statement_file_life
          SET gone_ms = NEW.at + coalesce((SELECT offset_ms FROM statement_clock WHERE id = 1), 0)
          WHERE account_id = NEW.account_id AND id = NEW.id AND gone_ms IS NULL;
      END;
    `,
  },
];
