import type { Migration } from '../../shared-node/sqlite';

/**
 * Tables of the knowledge-entry API and the lead webhook (ids 100-199). `client_id` refers to the
 * file-hosting module's `clients` table by value (checked by query, not by a foreign key) so the two
 * modules' migrations stay independent.
 */
export const SERVER_KB_MIGRATIONS: Migration[] = [
  {
    id: 100,
    name: 'kb_bots',
    // The server signs deliveries itself, so it keeps the signing secret; the API token only as a digest.
    up: `CREATE TABLE kb_bots (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      client_id INTEGER NOT NULL,
      name TEXT NOT NULL,
      business_name TEXT NOT NULL,
      webhook_url TEXT,
      token_sha256 TEXT NOT NULL UNIQUE,
      signing_secret TEXT NOT NULL,
      created_at_ms INTEGER NOT NULL
    );
    CREATE INDEX kb_bots_client ON kb_bots (client_id);`,
  },
  {
    id: 101,
    name: 'kb_entries',
    up: `CREATE TABLE kb_entries (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      bot_id INTEGER NOT NULL REFERENCES kb_bots (id),
      title TEXT NOT NULL,
      description TEXT NOT NULL,
      source TEXT NOT NULL,
      sort_order INTEGER NOT NULL,
      updated_at_ms INTEGER NOT NULL
    );
    CREATE INDEX kb_entries_bot ON kb_entries (bot_id, sort_order);`,
  },
  {
    id: 102,
    name: 'kb_conversations_and_deliveries',
    // body is the exact signed byte string: every retry sends it unchanged.
    up: `CREATE TABLE kb_conversations (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      bot_id INTEGER NOT NULL REFERENCES kb_bots (id),
      visitor_ref TEXT NOT NULL,
      started_at_ms INTEGER NOT NULL
    );
    CREATE TABLE kb_deliveries (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      bot_id INTEGER NOT NULL REFERENCES kb_bots (id),
      conversation_id INTEGER NOT NULL UNIQUE REFERENCES kb_conversations (id),
      event TEXT NOT NULL,
      body BLOB NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('PENDING', 'DELIVERED', 'FAILED', 'REFUSED')),
      next_attempt_at_ms INTEGER,
      created_at_ms INTEGER NOT NULL
    );
    CREATE INDEX kb_deliveries_bot ON kb_deliveries (bot_id, id);
    CREATE INDEX kb_deliveries_due ON kb_deliveries (next_attempt_at_ms) WHERE state = 'PENDING';
    CREATE TABLE kb_delivery_attempts (
      delivery_id INTEGER NOT NULL REFERENCES kb_deliveries (id),
      number INTEGER NOT NULL,
      at_ms INTEGER NOT NULL,
      status INTEGER,
      error TEXT,
      duration_ms INTEGER NOT NULL,
      PRIMARY KEY (delivery_id, number)
    );`,
  },
];
