import type { Migration } from '../../shared-node/sqlite';

/**
 * The remote index (ids 400-499 of the app database): one row per live file of an account, as the
 * service listed it, and per account where the listing passes stand (docs/remote-index.md).
 */
export const REMOTE_INDEX_MIGRATIONS: Migration[] = [
  {
    id: 400,
    name: 'remote index: accounts and files',
    up: `
      CREATE TABLE remote_index_accounts (
        id INTEGER PRIMARY KEY,
        service TEXT NOT NULL,
        client_id INTEGER NOT NULL,
        watermark INTEGER,
        pass_top INTEGER,
        pass_low INTEGER,
        pass_page INTEGER,
        refreshed_at INTEGER,
        walk_top INTEGER,
        walk_low INTEGER,
        walk_page INTEGER,
        walk_started_at INTEGER,
        walk_finished_at INTEGER,
        UNIQUE (service, client_id)
      );
      CREATE TABLE remote_index_files (
        account_id INTEGER NOT NULL REFERENCES remote_index_accounts (id) ON DELETE CASCADE,
        id INTEGER NOT NULL,
        name TEXT NOT NULL,
        name_fold TEXT NOT NULL,
        bucket TEXT NOT NULL,
        url TEXT NOT NULL,
        size INTEGER NOT NULL,
        md5 TEXT NOT NULL,
        mime TEXT NOT NULL,
        extension TEXT NOT NULL,
        created_at TEXT NOT NULL,
        created_ms INTEGER NOT NULL,
        PRIMARY KEY (account_id, id)
      ) WITHOUT ROWID;
      -- One index per sort, each carrying every filtered column: a filter is checked in the index
      -- alone (no row read per file), and a page reads only its own rows (docs/remote-index.md).
      CREATE INDEX remote_index_by_date
        ON remote_index_files (account_id, created_ms, id, name_fold, bucket, extension, mime, size);
      CREATE INDEX remote_index_by_name
        ON remote_index_files (account_id, name_fold, id, bucket, extension, mime, size, created_ms);
      CREATE INDEX remote_index_by_size
        ON remote_index_files (account_id, size, id, name_fold, bucket, extension, mime, created_ms);
      -- Finding the file a URL names (an entry that cites it).
      CREATE INDEX remote_index_by_url ON remote_index_files (account_id, url);
      CREATE INDEX remote_index_by_bucket
        ON remote_index_files (account_id, bucket, id, name_fold, extension, mime, size, created_ms);
    `,
  },
  {
    id: 410,
    name: 'remote index: bulk deletes that survive a restart',
    up: `
      CREATE TABLE remote_bulk_jobs (
        id INTEGER PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES remote_index_accounts (id) ON DELETE CASCADE,
        state TEXT NOT NULL,
        total INTEGER NOT NULL,
        bytes INTEGER NOT NULL,
        last_error_code TEXT,
        last_error_message TEXT,
        started_at INTEGER NOT NULL,
        finished_at INTEGER
      );
      -- state: 0 waiting, 1 done (deleted or already gone), 2 refused.
      CREATE TABLE remote_bulk_items (
        job_id INTEGER NOT NULL REFERENCES remote_bulk_jobs (id) ON DELETE CASCADE,
        file_id INTEGER NOT NULL,
        size INTEGER NOT NULL,
        state INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (job_id, file_id)
      ) WITHOUT ROWID;
      CREATE INDEX remote_bulk_items_by_state ON remote_bulk_items (job_id, state, file_id);
    `,
  },
  {
    id: 420,
    name: 'remote index: the files it saw go, until the sync rows on them are told (issue 18)',
    // Written by the removals that mean "gone from the service" (a listing without it, a 410, a delete
    // this app sent), never by forgetting an index; read and emptied by the app, which sends the
    // watched folders' files on those ids again (docs/remote-index.md, "Files gone from the service").
    up: `
      CREATE TABLE remote_index_gone (
        account_id INTEGER NOT NULL REFERENCES remote_index_accounts (id) ON DELETE CASCADE,
        id INTEGER NOT NULL,
        at INTEGER NOT NULL,
        PRIMARY KEY (account_id, id)
      ) WITHOUT ROWID;
    `,
  },
];
