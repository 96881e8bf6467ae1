import type { Migration } from '../../shared-node/sqlite';

/**
 * The file-hosting half's tables (ids 10-99). Times are epoch milliseconds of the server's clock; money is
 * integer paise. Keys are stored only as sha256 digests. Clients are referenced by the knowledge-entry
 * module's tables, so `clients` keeps its name and id column.
 */
export const FILE_HOSTING_MIGRATIONS: Migration[] = [
  {
    id: 10,
    name: 'file_hosting_accounts',
    up: `
      CREATE TABLE clients (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        default_bucket TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'PAUSED', 'CLOSED')),
        balance_paise INTEGER NOT NULL DEFAULT 0 CHECK (balance_paise >= 0),
        arrears_paise INTEGER NOT NULL DEFAULT 0 CHECK (arrears_paise >= 0),
        arrears_since INTEGER,
        closed_at INTEGER,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE api_keys (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        client_id INTEGER NOT NULL REFERENCES clients(id),
        digest TEXT NOT NULL UNIQUE,
        created_at INTEGER NOT NULL,
        revoked_at INTEGER
      );
      CREATE TABLE ledger (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        client_id INTEGER NOT NULL REFERENCES clients(id),
        at INTEGER NOT NULL,
        kind TEXT NOT NULL,
        amount_paise INTEGER NOT NULL,
        balance_after_paise INTEGER NOT NULL,
        arrears_after_paise INTEGER NOT NULL,
        usage_date TEXT
      );
      CREATE INDEX ledger_by_client ON ledger (client_id, id);
    `,
  },
  {
    id: 11,
    name: 'file_hosting_files',
    up: `
      CREATE TABLE files (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        client_id INTEGER NOT NULL REFERENCES clients(id),
        bucket TEXT NOT NULL,
        name TEXT NOT NULL,
        url_name TEXT NOT NULL,
        object_key TEXT NOT NULL,
        extension TEXT NOT NULL,
        mime TEXT NOT NULL,
        size_bytes INTEGER NOT NULL,
        hash TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('ACTIVE', 'DELETED')),
        created_at INTEGER NOT NULL,
        deleted_at INTEGER
      );
      CREATE INDEX files_live ON files (client_id, status, id);
      CREATE INDEX files_live_bucket ON files (client_id, status, bucket, id);
      CREATE UNIQUE INDEX files_by_url ON files (client_id, bucket, url_name);
      CREATE TABLE usage_snapshots (
        client_id INTEGER NOT NULL REFERENCES clients(id),
        usage_date TEXT NOT NULL,
        bytes_used INTEGER NOT NULL,
        files_count INTEGER NOT NULL,
        rent_paise INTEGER NOT NULL,
        outcome TEXT NOT NULL,
        PRIMARY KEY (client_id, usage_date)
      );
    `,
  },
];
