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
];
