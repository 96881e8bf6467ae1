import type { Migration } from '../../shared-node/sqlite';

/**
 * Leads (ids 200-299). `conversation_id` is the service's deduplication key, scoped to the local
 * bot whose secret verified the delivery (two accounts may reuse ids): the unique key makes a
 * redelivery a no-op. Signing secrets live in the keychain, not here.
 */
export const LEADS_MIGRATIONS: Migration[] = [
  {
    id: 200,
    name: 'leads',
    up: `
      CREATE TABLE leads (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        bot_local_id INTEGER NOT NULL,
        remote_bot_id INTEGER NOT NULL,
        bot_name TEXT NOT NULL,
        business_name TEXT NOT NULL,
        conversation_id INTEGER NOT NULL,
        event TEXT NOT NULL,
        name TEXT NOT NULL,
        email TEXT NOT NULL,
        phone TEXT NOT NULL,
        note TEXT,
        asked_for_a_person INTEGER NOT NULL,
        visitor_ref TEXT NOT NULL,
        started_at TEXT NOT NULL,
        received_at TEXT NOT NULL,
        handled_at TEXT,
        raw_body TEXT NOT NULL,
        UNIQUE (bot_local_id, conversation_id)
      );
      CREATE INDEX leads_received ON leads (received_at DESC, id DESC);
    `,
  },
  {
    id: 201,
    name: 'lead receiver address',
    // Host, port and path of the webhook receiver: not secret, and a real account's bot editor
    // holds a URL built from them, so the port chosen on the first start is kept.
    up: 'CREATE TABLE leads_receiver (id INTEGER PRIMARY KEY CHECK (id = 1), host TEXT NOT NULL, port INTEGER NOT NULL, path TEXT NOT NULL)',
  },
  {
    id: 210,
    name: 'leads through a relay: handled by whom, cursor, rejected deliveries',
    // handled_changed_at/_by are the time and desk of the change that set handled_at/handled_by (the
    // latest wins, whichever desk made it; marking open is a change too, with no handled_by); mark_unsent says this desk's change has not reached the relay yet.
    // A relay's address and desk name are not secret; its read token is in the keychain. The cursor
    // is per relay address, so pointing at another relay reads it from its start. Rejected deliveries
    // keep their bytes: they are checked again when a bot's signing secret is added or changed.
    up: `
      ALTER TABLE leads ADD COLUMN handled_by TEXT;
      ALTER TABLE leads ADD COLUMN handled_changed_at TEXT;
      ALTER TABLE leads ADD COLUMN handled_changed_by TEXT;
      ALTER TABLE leads ADD COLUMN mark_unsent INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE leads ADD COLUMN relay_seq INTEGER;
      UPDATE leads SET handled_changed_at = handled_at WHERE handled_at IS NOT NULL;
      CREATE TABLE leads_relay (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        url TEXT NOT NULL,
        desk_name TEXT NOT NULL,
        allow_insecure INTEGER NOT NULL DEFAULT 0
      );
      CREATE TABLE leads_relay_cursor (
        url TEXT PRIMARY KEY,
        cursor INTEGER NOT NULL,
        last_pull_at TEXT,
        waiting INTEGER NOT NULL DEFAULT 0
      );
      CREATE TABLE leads_rejected (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        relay_url TEXT NOT NULL,
        relay_seq INTEGER NOT NULL,
        received_at TEXT NOT NULL,
        event TEXT,
        signature TEXT,
        body BLOB NOT NULL,
        code TEXT NOT NULL,
        reason TEXT NOT NULL,
        remote_bot_id INTEGER,
        conversation_id INTEGER,
        rejected_at TEXT NOT NULL,
        UNIQUE (relay_url, relay_seq)
      );
      CREATE TABLE leads_marks_waiting (
        remote_bot_id INTEGER NOT NULL,
        conversation_id INTEGER NOT NULL,
        handled INTEGER NOT NULL,
        by TEXT NOT NULL,
        at TEXT NOT NULL,
        sig TEXT NOT NULL,
        PRIMARY KEY (remote_bot_id, conversation_id, at, by, handled)
      );
    `,
  },
  {
    id: 211,
    name: 'leads a relay deleted before this desk read them',
    // Issue 32: the relay says how many deliveries after this desk's cursor its retention deleted
    // (RelayFeed.expired); the count is kept per relay address, so the Leads view and the CLI say it
    // after a restart too. Nothing was counted before: 0.
    up: 'ALTER TABLE leads_relay_cursor ADD COLUMN expired INTEGER NOT NULL DEFAULT 0',
  },
];
