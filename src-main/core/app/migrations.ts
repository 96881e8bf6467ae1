import type { Migration } from '../../shared-node/sqlite';

/**
 * The app's own tables (range 300-399): settings, and the last copy of what the views show
 * (account, usage, the files listing) so that the UI works offline with the time of the fetch.
 * Rows are keyed by the service address so a switch of account never shows another's data.
 */
export const APP_UI_MIGRATIONS: Migration[] = [
  {
    id: 300,
    name: 'app settings and view cache',
    up: `
      CREATE TABLE app_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE app_view_cache (
        base_url TEXT NOT NULL, kind TEXT NOT NULL, json TEXT NOT NULL, fetched_at INTEGER NOT NULL,
        PRIMARY KEY (base_url, kind)
      );
      CREATE TABLE app_remote_files (
        base_url TEXT NOT NULL, id INTEGER NOT NULL, bucket TEXT NOT NULL, name TEXT NOT NULL,
        size_bytes INTEGER NOT NULL, created_at TEXT NOT NULL, json TEXT NOT NULL,
        PRIMARY KEY (base_url, id)
      );
      CREATE INDEX app_remote_files_order ON app_remote_files (base_url, created_at DESC, id DESC);
    `,
  },
];
