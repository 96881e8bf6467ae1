import type { Migration } from '../../../shared-node/sqlite';

/**
 * The sync engine's tables (ids 1-89 of the app database). Secrets never live here: the API key
 * stays in the keychain, and nothing below has a column that could hold one.
 */
export const SYNC_MIGRATIONS: Migration[] = [
  {
    id: 1,
    name: 'sync: folders, files, upload journal, remote trash, activity',
    up: `
      CREATE TABLE sync_folders (
        id INTEGER PRIMARY KEY,
        path TEXT NOT NULL UNIQUE,
        bucket TEXT NOT NULL,
        mode TEXT NOT NULL CHECK (mode IN ('upload-only', 'mirror')),
        paused INTEGER NOT NULL DEFAULT 0,
        ignore_patterns TEXT NOT NULL DEFAULT '',
        watcher TEXT NOT NULL DEFAULT 'native' CHECK (watcher IN ('native', 'polling')),
        problem TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE sync_files (
        id INTEGER PRIMARY KEY,
        folder_id INTEGER NOT NULL REFERENCES sync_folders(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        state TEXT NOT NULL,
        size INTEGER,
        mtime_ms INTEGER,
        inode INTEGER,
        md5 TEXT,
        remote_id INTEGER,
        remote_url TEXT,
        remote_md5 TEXT,
        remote_size INTEGER,
        old_remote_id INTEGER,
        reason_code TEXT,
        reason TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_retry_at INTEGER,
        not_before INTEGER,
        renamed_from TEXT,
        rehashed INTEGER NOT NULL DEFAULT 0,
        scan_gen INTEGER NOT NULL DEFAULT 0,
        updated_at INTEGER NOT NULL,
        UNIQUE (folder_id, name)
      );
      CREATE INDEX sync_files_by_state ON sync_files (state, folder_id);
      CREATE INDEX sync_files_by_content ON sync_files (folder_id, size, md5);
      CREATE TABLE sync_journal (
        id INTEGER PRIMARY KEY,
        file_id INTEGER NOT NULL REFERENCES sync_files(id) ON DELETE CASCADE,
        bucket TEXT NOT NULL,
        name TEXT NOT NULL,
        size INTEGER NOT NULL,
        md5 TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        settled_at INTEGER,
        outcome TEXT,
        remote_id INTEGER
      );
      CREATE INDEX sync_journal_open ON sync_journal (settled_at, bucket);
      CREATE TABLE sync_trash (
        remote_id INTEGER PRIMARY KEY,
        reason TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_retry_at INTEGER,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE sync_activity (
        id INTEGER PRIMARY KEY,
        at INTEGER NOT NULL,
        folder_id INTEGER,
        file_id INTEGER,
        kind TEXT NOT NULL,
        message TEXT NOT NULL
      );
    `,
  },
  {
    id: 2,
    name: 'sync: indexes for the scheduler (next rows by id, earliest due time per state)',
    // Without these, each scheduler turn sorted every waiting row: quadratic with 100,000 new files.
    up: `
      CREATE INDEX sync_files_by_state_id ON sync_files (state, id);
      CREATE INDEX sync_files_by_state_not_before ON sync_files (state, not_before);
      CREATE INDEX sync_files_by_state_retry ON sync_files (state, next_retry_at);
    `,
  },
  {
    id: 3,
    name: 'sync: the account the rows were synced with (service + client id)',
    // One row: remote ids, the journal and the trash only mean something on this account. Another account
    // (a reset sandbox, another base URL, another client's key) gets every row verified before anything is sent.
    up: `
      CREATE TABLE sync_account (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        service TEXT NOT NULL,
        client_id INTEGER NOT NULL,
        since INTEGER NOT NULL
      );
    `,
  },
  {
    id: 10,
    name: 'sync: per-folder setting to follow links that leave the folder (off)',
    up: `ALTER TABLE sync_folders ADD COLUMN follow_outside_links INTEGER NOT NULL DEFAULT 0;`,
  },
  {
    id: 11,
    name: 'sync: priority lanes (0 the scan backlog, the time seen for the watcher, higher for Upload now)',
    up: `
      ALTER TABLE sync_files ADD COLUMN priority INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX sync_files_state_priority ON sync_files(state, priority DESC, id);
    `,
  },
  {
    id: 12,
    name: "sync: scan marks (what a folder's last consistent scan saw, and a count of the row changes a scan would notice since)",
    // scan-marks-store.ts says what the triggers count and why; the plain cycle of an upload bumps nothing.
    up: `
      CREATE TABLE sync_scan_marks (
        folder_id INTEGER PRIMARY KEY REFERENCES sync_folders(id) ON DELETE CASCADE,
        gen INTEGER NOT NULL DEFAULT 0,
        mark_gen INTEGER,
        digest TEXT,
        files INTEGER,
        ignored TEXT
      );
      CREATE TRIGGER sync_scan_marks_on_insert AFTER INSERT ON sync_files BEGIN
        UPDATE sync_scan_marks SET gen = gen + 1 WHERE folder_id = NEW.folder_id;
      END;
      CREATE TRIGGER sync_scan_marks_on_delete AFTER DELETE ON sync_files BEGIN
        UPDATE sync_scan_marks SET gen = gen + 1 WHERE folder_id = OLD.folder_id;
      END;
      CREATE TRIGGER sync_scan_marks_on_update AFTER UPDATE ON sync_files
      WHEN OLD.folder_id IS NOT NEW.folder_id OR OLD.name IS NOT NEW.name OR OLD.size IS NOT NEW.size
        OR OLD.mtime_ms IS NOT NEW.mtime_ms OR OLD.inode IS NOT NEW.inode
        OR OLD.reason_code IS NOT NEW.reason_code
        OR (OLD.state IS NOT NEW.state AND (
          OLD.state NOT IN ('NEW', 'HASHING', 'QUEUED', 'UPLOADING', 'LIVE', 'PAUSED')
          OR NEW.state NOT IN ('NEW', 'HASHING', 'QUEUED', 'UPLOADING', 'LIVE', 'PAUSED')))
      BEGIN
        UPDATE sync_scan_marks SET gen = gen + 1 WHERE folder_id IN (OLD.folder_id, NEW.folder_id);
      END;
    `,
  },
  {
    id: 25,
    name: 'sync: a mirror delete carries its reason code (MIRROR-DELETED), read back instead of its sentence',
    // The last place that reads the sentence: rows deleted before the code existed.
    up: `
      UPDATE sync_files SET reason_code = 'MIRROR-DELETED'
       WHERE state = 'DELETED' AND reason LIKE '%The remote copy was deleted (mirror folder).%';
    `,
  },
];
