import type { Migration } from '../../shared-node/sqlite';

/**
 * Knowledge-entry tables (ids 100-199). Tokens are not here: they live in the keychain under
 * `bot-token:<local_id>`.
 *
 * An entry row is the local truth the editor sees. `base_updated_at` is the server's `updated_at`
 * that the local copy was last in step with: an update is sent only while the server still shows
 * that value and text (`updated_at` has one-second steps, so the text is compared as well),
 * otherwise the entry becomes a conflict and the server's copy is kept in `theirs_*`.
 */
export const CORE_KB_MIGRATIONS: Migration[] = [
  {
    id: 100,
    name: 'kb bots, entries and outbox',
    up: `
      CREATE TABLE kb_bots (
        local_id INTEGER PRIMARY KEY AUTOINCREMENT,
        base_url TEXT NOT NULL,
        remote_bot_id INTEGER,
        name TEXT NOT NULL,
        is_sandbox INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        last_sync_at TEXT,
        last_error_code TEXT,
        last_error_message TEXT,
        next_sync_at TEXT
      );
      CREATE TABLE kb_entries (
        local_id INTEGER PRIMARY KEY AUTOINCREMENT,
        bot_local_id INTEGER NOT NULL REFERENCES kb_bots(local_id) ON DELETE CASCADE,
        remote_id INTEGER,
        title TEXT NOT NULL,
        description TEXT NOT NULL,
        source TEXT,
        sort_order INTEGER,
        base_updated_at TEXT,
        base_title TEXT,
        base_description TEXT,
        locally_deleted INTEGER NOT NULL DEFAULT 0,
        state TEXT NOT NULL CHECK (state IN ('synced', 'pending', 'conflict', 'error')),
        error_code TEXT,
        error_message TEXT,
        theirs_title TEXT,
        theirs_description TEXT,
        theirs_updated_at TEXT,
        theirs_deleted INTEGER NOT NULL DEFAULT 0,
        edited_at TEXT NOT NULL,
        UNIQUE (bot_local_id, remote_id)
      );
      CREATE INDEX kb_entries_bot ON kb_entries (bot_local_id);
      CREATE TABLE kb_outbox (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        bot_local_id INTEGER NOT NULL REFERENCES kb_bots(local_id) ON DELETE CASCADE,
        entry_local_id INTEGER NOT NULL,
        op TEXT NOT NULL CHECK (op IN ('create', 'update', 'delete')),
        title TEXT,
        description TEXT,
        rev INTEGER NOT NULL DEFAULT 1,
        held INTEGER NOT NULL DEFAULT 0,
        sending INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL
      );
      CREATE INDEX kb_outbox_bot ON kb_outbox (bot_local_id, seq);
      CREATE UNIQUE INDEX kb_outbox_entry ON kb_outbox (entry_local_id);
    `,
  },
  {
    id: 101,
    name: 'kb outbox hold for undo',
    // Epoch ms before which the row is not sent: a delete waits out the editor's undo window here,
    // on disk, so an app closed inside the window still sends it at the next start.
    up: 'ALTER TABLE kb_outbox ADD COLUMN not_before INTEGER',
  },
];
