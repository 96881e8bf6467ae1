import type { Db, Migration } from '../shared-node/sqlite';
import { type NewerDatabaseError, newerSchema, openDatabase } from '../shared-node/sqlite';

/**
 * The relay's own database (`<data>/relay.sqlite`), its own ids from 1. Deliveries keep their exact
 * bytes and headers; marks are "handled" states signed by desks. Both share one sequence, the
 * desks' cursor, so a desk reads leads and marks in the order the relay took them.
 */
export const RELAY_MIGRATIONS: Migration[] = [
  {
    id: 1,
    name: 'relay keys, deliveries, marks',
    up: `
      CREATE TABLE relay_keys (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        webhook_secret TEXT NOT NULL,
        read_token TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE TABLE relay_seq (id INTEGER PRIMARY KEY CHECK (id = 1), last INTEGER NOT NULL);
      INSERT INTO relay_seq (id, last) VALUES (1, 0);
      CREATE TABLE deliveries (
        seq INTEGER PRIMARY KEY,
        received_at INTEGER NOT NULL,
        bot_id INTEGER NOT NULL,
        conversation_id INTEGER NOT NULL,
        event TEXT,
        signature TEXT NOT NULL,
        content_type TEXT,
        body BLOB NOT NULL,
        UNIQUE (bot_id, conversation_id, signature)
      );
      CREATE INDEX deliveries_received ON deliveries (received_at);
      CREATE TABLE marks (
        seq INTEGER PRIMARY KEY,
        received_at INTEGER NOT NULL,
        bot_id INTEGER NOT NULL,
        conversation_id INTEGER NOT NULL,
        handled INTEGER NOT NULL,
        by TEXT NOT NULL,
        at TEXT NOT NULL,
        sig TEXT NOT NULL,
        UNIQUE (bot_id, conversation_id, at, by, handled, sig)
      );
      CREATE INDEX marks_received ON marks (received_at);
    `,
  },
  {
    id: 2,
    name: 'deliveries: one row per distinct bytes, not per signature',
    // Issue 32: a copy with altered bytes and the genuine signature, posted first, took the unique
    // (bot, conversation, signature) place and the service's real delivery became a "duplicate" no
    // desk ever saw. Dedup now also compares the bytes (relay-store.ts); the rebuild drops the
    // unique key, which SQLite cannot drop in place.
    up: `
      CREATE TABLE deliveries_v2 (
        seq INTEGER PRIMARY KEY,
        received_at INTEGER NOT NULL,
        bot_id INTEGER NOT NULL,
        conversation_id INTEGER NOT NULL,
        event TEXT,
        signature TEXT NOT NULL,
        content_type TEXT,
        body BLOB NOT NULL
      );
      INSERT INTO deliveries_v2 (seq, received_at, bot_id, conversation_id, event, signature, content_type, body)
        SELECT seq, received_at, bot_id, conversation_id, event, signature, content_type, body FROM deliveries;
      DROP TABLE deliveries;
      ALTER TABLE deliveries_v2 RENAME TO deliveries;
      CREATE INDEX deliveries_received ON deliveries (received_at);
      CREATE INDEX deliveries_conversation ON deliveries (bot_id, conversation_id, signature);
    `,
  },
  {
    id: 3,
    name: 'the seqs of deliveries retention deleted',
    // Issue 32: a desk that pulls after retention deleted leads it never read is told how many
    // (RelayFeed.expired). A seq is a few bytes: kept for good, so a desk away longer still learns it.
    up: 'CREATE TABLE expired (seq INTEGER PRIMARY KEY)',
  },
];

/**
 * WAL with synchronous FULL: every commit is fsync'd to the WAL before it returns, so a delivery
 * answered 2xx survives a kill -9 or a power cut (NORMAL, the app's setting, may lose the last
 * commits on power loss). Chosen over an fsync'd append log because the relay needs an index anyway
 * (dedup per bot and conversation, reads by cursor, retention by date) and SQLite gives one commit
 * = one fsync, with crash recovery already written and tested.
 */
export function openRelayDatabase(file: string): Db {
  const db = openDatabase(file, RELAY_MIGRATIONS);
  db.pragma('synchronous = FULL');
  return db;
}

/** A relay database a later version migrated (NewerDatabaseError), found before the folder is touched; else null. */
export function relayDatabaseTooNew(file: string): NewerDatabaseError | null {
  return newerSchema(file, RELAY_MIGRATIONS);
}
