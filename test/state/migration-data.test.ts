import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createLeadsStore } from '../../src-main/core/leads/leads-store';
import { APP_MIGRATIONS } from '../../src-main/core/state/migrations';
import { filesStore } from '../../src-main/core/sync/state/files-store';
import { foldersStore } from '../../src-main/core/sync/state/folders-store';
import { scanMarksStore } from '../../src-main/core/sync/state/scan-marks-store';
import { SERVER_MIGRATIONS } from '../../src-main/reference-server/db/migrations';
import { RELAY_MIGRATIONS } from '../../src-main/relay/relay-db';
import { type Db, type Migration, migrate, openDatabase } from '../../src-main/shared-node/sqlite';
import { FILE_STATES } from '../../src-shared/contract/sync';
import { APP_ROWS, asBefore, RELAY_ROWS, SERVER_ROWS, seed, snapshot, tablesOf } from './seed-rows';

// Migrations with data (issue 22). For each migration: a database migrated to just before it, rows in
// every table it has then (seed-rows.ts), the migration, and then every row still there with every
// value it had, plus what the migration says it does to them (EXPECT below, one entry per migration:
// a migration without one fails). And each released schema kept in test/fixtures, with rows, opened
// by today's code and read back through today's stores. The pattern is docs/architecture.md, "State".

type Snapshot = ReturnType<typeof snapshot>;
interface Expectation {
  /** Tables the migration removes (their rows go with them, on purpose). */
  drops?: string[];
  /** Columns the migration rewrites on purpose, by table: compared by `check`, not kept as they were. */
  rewrites?: Record<string, string[]>;
  /** Rows the migration deletes on purpose, by table: left out of the comparison on both sides. */
  removes?: Record<string, (row: Record<string, unknown>) => boolean>;
  /** What the migration does to the rows (and the schema) beyond keeping them. */
  check?(db: Db, before: Snapshot, after: Snapshot): void;
}

const column = (s: Snapshot, table: string, name: string) => (s[table] ?? []).map((r) => r[name]);
const createsEmpty =
  (...tables: string[]): Expectation['check'] =>
  (_db, before, after) => {
    for (const t of tables) {
      expect(before[t], `${t} before`).toBeUndefined();
      expect(after[t], t).toEqual([]);
    }
  };

const APP_EXPECT: Record<number, Expectation> = {
  1: { check: createsEmpty('sync_folders', 'sync_files', 'sync_journal', 'sync_trash', 'sync_activity') },
  2: {
    check: (db) => expect((db.pragma('index_list(sync_files)') as unknown[]).length).toBeGreaterThan(1),
  },
  // No account on record: the engine checks the rows' account once at its next start (docs/sync-engine.md).
  3: { check: createsEmpty('sync_account') },
  10: {
    // Links out of a folder stay refused on every folder that was there: the setting starts off.
    check: (_db, before, after) => {
      expect(column(before, 'sync_folders', 'follow_outside_links')).toEqual([undefined, undefined]);
      expect(column(after, 'sync_folders', 'follow_outside_links')).toEqual([0, 0]);
    },
  },
  11: {
    // Every file found before is the scan backlog (priority 0), in its old order by id.
    check: (db, _before, after) => {
      expect(new Set(column(after, 'sync_files', 'priority'))).toEqual(new Set([0]));
      const order = db
        .prepare("SELECT id FROM sync_files WHERE state IN ('NEW', 'QUEUED') ORDER BY priority DESC, id")
        .all()
        .map((r) => (r as { id: number }).id);
      expect(order).toEqual([...order].sort((a, b) => a - b));
    },
  },
  12: {
    // No folder has a mark yet: each is read whole at its next scan. The triggers count from then on.
    check: (db, _before, after) => {
      expect(after.sync_scan_marks).toEqual([]);
      const marks = scanMarksStore(db);
      expect(marks.begin(1)).toEqual({ gen: 0, mark: null });
      const gen = () =>
        (db.prepare('SELECT gen FROM sync_scan_marks WHERE folder_id = 1').get() as { gen: number }).gen;
      const file = (state: string) =>
        (
          db.prepare('SELECT id FROM sync_files WHERE folder_id = 1 AND state = ?').get(state) as {
            id: number;
          }
        ).id;
      db.prepare("UPDATE sync_files SET state = 'QUEUED' WHERE id = ?").run(file('NEW'));
      expect(gen(), 'NEW -> QUEUED is the plain way of an upload').toBe(0);
      db.prepare('UPDATE sync_files SET size = size + 1 WHERE id = ?').run(file('DELETING'));
      expect(gen(), 'a size changed').toBe(1);
      db.prepare("UPDATE sync_files SET state = 'FAILED' WHERE id = ?").run(file('LIVE'));
      expect(gen(), 'LIVE -> FAILED leaves the plain way').toBe(2);
    },
  },
  // A mirror delete from before the code gets it, found by the sentence it was written with; the
  // sentence stays, other rows and other reasons keep their codes. A changed code is a change a
  // scan notices (the triggers of 12), so that row's folder is read whole at its next scan.
  25: {
    rewrites: { sync_files: ['reason_code'], sync_scan_marks: ['gen'] },
    check: (_db, before, after) => {
      const code = (s: Snapshot, state: string) => s.sync_files?.find((r) => r.state === state)?.reason_code;
      expect(code(before, 'DELETED')).toBeNull();
      expect(code(after, 'DELETED')).toBe('MIRROR-DELETED');
      const folder = before.sync_files?.find((r) => r.state === 'DELETED')?.folder_id;
      const gens = (s: Snapshot) => (s.sync_scan_marks ?? []).map((r) => [r.folder_id, r.gen]);
      expect(gens(after)).toEqual(gens(before).map(([f, gen]) => [f, f === folder ? Number(gen) + 1 : gen]));
      const others = (s: Snapshot) =>
        (s.sync_files ?? []).filter((r) => r.state !== 'DELETED').map((r) => [r.id, r.reason_code]);
      expect(others(after)).toEqual(others(before));
      expect(others(after)).toContainEqual([expect.any(Number), 'NETWORK']);
    },
  },
  90: { check: createsEmpty('service_settings') },
  91: { check: createsEmpty('service_cache') },
  // The files listing's cached pages go (the remote index owns the account's files); the account
  // and usage kept in the same cache stay.
  97: {
    removes: { service_cache: (r) => r.kind === 'files' },
    check: (_db, before, after) => {
      expect(column(before, 'service_cache', 'kind')).toContain('files');
      expect(column(after, 'service_cache', 'kind').sort()).toEqual(['account', 'usage']);
    },
  },
  100: { check: createsEmpty('kb_bots', 'kb_entries', 'kb_outbox') },
  // Edits that waited in the outbox go at once: no undo window for what was queued before it existed.
  101: {
    check: (_db, _before, after) => expect(column(after, 'kb_outbox', 'not_before')).toEqual([null, null]),
  },
  200: { check: createsEmpty('leads') },
  201: { check: createsEmpty('leads_receiver') },
  // A lead handled before the relay was changed when it was handled, by no desk; nothing waits to be sent.
  210: {
    check: (_db, _before, after) => {
      createsEmpty(
        'leads_relay',
        'leads_relay_cursor',
        'leads_rejected',
        'leads_marks_waiting',
      )?.(_db, _before, after);
      expect(column(after, 'leads', 'handled_changed_at')).toEqual(column(after, 'leads', 'handled_at'));
      expect(column(after, 'leads', 'handled_changed_at')).toContain(
        column(_before, 'leads', 'handled_at').find((v) => v !== null),
      );
      expect(new Set(column(after, 'leads', 'mark_unsent'))).toEqual(new Set([0]));
      expect(new Set(column(after, 'leads', 'handled_by'))).toEqual(new Set([null]));
    },
  },
  // Nothing was counted before the relay said it (issue 32): every cursor starts at 0 lost.
  211: {
    check: (_db, before, after) => {
      expect(column(before, 'leads_relay_cursor', 'expired')).toEqual([undefined]);
      expect(column(after, 'leads_relay_cursor', 'expired')).toEqual([0]);
    },
  },
  300: { check: createsEmpty('app_settings', 'app_view_cache', 'app_remote_files') },
  // The listing's offline copy moved to service_cache (91); the next refresh fills it again.
  301: { drops: ['app_view_cache', 'app_remote_files'] },
  400: { check: createsEmpty('remote_index_accounts', 'remote_index_files') },
  410: { check: createsEmpty('remote_bulk_jobs', 'remote_bulk_items') },
  // Nothing is known gone yet: only removals after it write here (docs/remote-index.md).
  420: { check: createsEmpty('remote_index_gone') },
  // A schedule saved with rates names kinds of hour; the other rate becomes the limited hours' rate.
  330: {
    rewrites: { app_settings: ['value'] },
    check: (_db, before, after) => {
      const settings = (s: Snapshot) =>
        JSON.parse(String(s.app_settings?.find((r) => r.key === 'settings')?.value)) as Record<
          string,
          unknown
        >;
      expect(settings(before).bwSchedule).toBe('Mon-09:00,256k Mon-17:00,2M');
      expect(settings(after)).toEqual({
        bwlimit: '2M',
        bwSchedule: 'Sun-00:00,normal Mon-09:00,limited Mon-17:00,normal',
        bwScheduleLimit: '256k',
      });
      expect(column(after, 'app_settings', 'key')).toEqual(column(before, 'app_settings', 'key'));
    },
  },
};

const SERVER_EXPECT: Record<number, Expectation> = {
  1: { check: createsEmpty('server_meta') },
  10: { check: createsEmpty('clients', 'api_keys', 'ledger') },
  11: { check: createsEmpty('files', 'usage_snapshots') },
  100: { check: createsEmpty('kb_bots') },
  101: { check: createsEmpty('kb_entries') },
  102: { check: createsEmpty('kb_conversations', 'kb_deliveries', 'kb_delivery_attempts') },
};

/**
 * `after`'s rows of `table` in `before`'s columns, but those a migration rewrites on purpose, and
 * without the rows it removes on purpose.
 */
function kept(
  before: Snapshot,
  after: Snapshot,
  table: string,
  rewritten: string[] = [],
  removed: ((row: Record<string, unknown>) => boolean)[] = [],
) {
  return asBefore(before, after, table)
    .filter((row) => !removed.some((r) => r(row)))
    .map((row) => Object.fromEntries(Object.entries(row).filter(([c]) => !rewritten.includes(c))));
}

/** Today's readers on an upgraded app database: what a user's data looks like to the app. */
function readsAppRows(db: Db): void {
  const folders = foldersStore(db).list();
  expect(folders.map((f) => [f.path, f.mode, f.followOutsideLinks])).toEqual([
    ['/home/a/photos', 'upload-only', false],
    ['/home/a/site', 'mirror', false],
  ]);
  const files = filesStore(db).list({ limit: 100 });
  expect(files.map((f) => f.state).sort()).toEqual([...FILE_STATES].sort());
  expect(files.find((f) => f.state === 'LIVE')).toMatchObject({
    remoteId: 9004,
    remoteMd5: expect.any(String),
  });
  expect(files.find((f) => f.state === 'FAILED')).toMatchObject({ reasonCode: 'NETWORK', attempts: 3 });
  expect(scanMarksStore(db).begin(1)).toEqual({ gen: 0, mark: null });
  expect(
    createLeadsStore(db)
      .list()
      .map((l) => [l.name, l.email]),
  ).toEqual([
    ['Asha Rao', 'asha@example.com'],
    ['Ravi Menon', 'ravi@example.com'],
  ]);
}

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
const dir = mkdtempSync(join(tmpdir(), 'assets-migration-data-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const file = () => join(dir, `db-${++n}.sqlite`);

/** A database migrated to just before `m`, with `rows`; then `m`; `look` sees both sides. */
function acrossMigration(
  migrations: readonly Migration[],
  m: Migration,
  rows: Parameters<typeof seed>[1],
  look: (db: Db, before: Snapshot, after: Snapshot) => void,
): void {
  const db = new Database(file());
  try {
    migrate(
      db,
      migrations.filter((x) => x.id < m.id),
    );
    seed(db, rows);
    const before = snapshot(db);
    migrate(db, [m]);
    look(db, before, snapshot(db));
  } finally {
    db.close();
  }
}

/** The relay's database (issue 33: every database's migrations with rows, not only the app's and the server's). */
const RELAY_EXPECT: Record<number, Expectation> = {
  1: {
    check: (_db, before, after) => {
      createsEmpty('relay_keys', 'deliveries', 'marks')?.(_db, before, after);
      // The sequence starts at 0, in its one row.
      expect(after.relay_seq).toEqual([{ id: 1, last: 0 }]);
    },
  },
  // Every delivery kept with every byte; the unique (bot, conversation, signature) key is gone, so a
  // copy with other bytes and the same signature is a row of its own (issue 32).
  2: {
    check: (db) => {
      db.prepare(
        `INSERT INTO deliveries (seq, received_at, bot_id, conversation_id, event, signature, content_type, body)
         VALUES (99, 0, 7, 70, NULL, 'sig-1', NULL, ?)`,
      ).run(Buffer.from('{"lead":"altered"}'));
      expect(
        (db.prepare('SELECT COUNT(*) AS n FROM deliveries WHERE signature = ?').get('sig-1') as { n: number })
          .n,
      ).toBe(2);
    },
  },
  3: { check: createsEmpty('expired') },
};

const DATABASES = [
  { name: 'app', migrations: APP_MIGRATIONS, rows: APP_ROWS, expect: APP_EXPECT, reads: readsAppRows },
  { name: 'server', migrations: SERVER_MIGRATIONS, rows: SERVER_ROWS, expect: SERVER_EXPECT, reads: null },
  { name: 'relay', migrations: RELAY_MIGRATIONS, rows: RELAY_ROWS, expect: RELAY_EXPECT, reads: null },
] as const;

describe.each(DATABASES)('the $name database migrated with rows in every table', (d) => {
  it('has an expectation for each migration, and rows for each table', () => {
    expect(Object.keys(d.expect).map(Number)).toEqual(d.migrations.map((m) => m.id));
    const db = openDatabase(file(), d.migrations);
    try {
      expect(() => seed(db, d.rows)).not.toThrow();
    } finally {
      db.close();
    }
  });

  it.each(d.migrations.map((m) => [m.id, m.name, m] as const))(
    'migration %i (%s) keeps every row and does what it says',
    (id, _name, m: Migration) => {
      const e = d.expect[id] ?? {};
      acrossMigration(d.migrations, m, d.rows, (db, before, after) => {
        for (const table of Object.keys(before)) {
          const removed = e.removes?.[table] ? [e.removes[table]] : [];
          if (e.drops?.includes(table)) expect(after[table], `${table} dropped`).toBeUndefined();
          else
            expect(kept(before, after, table, e.rewrites?.[table], removed), table).toEqual(
              kept(before, before, table, e.rewrites?.[table], removed),
            );
        }
        e.check?.(db, before, after);
      });
    },
  );

  const released = readdirSync(FIXTURES).filter((f) =>
    new RegExp(`^${d.name}-schema-\\d+\\.\\d+\\.\\d+\\.sql$`).test(f),
  );
  it.each(released)(
    'the release %s, with rows in every table, opens with every row kept and read',
    (fixture) => {
      const path = file();
      const old = new Database(path);
      old.exec(readFileSync(join(FIXTURES, fixture), 'utf8'));
      seed(old, d.rows);
      const before = snapshot(old);
      old.close();
      const db = openDatabase(path, d.migrations);
      try {
        const after = snapshot(db);
        for (const table of Object.keys(before)) {
          const dropped = d.migrations.some((m) => d.expect[m.id]?.drops?.includes(table));
          const rewritten = d.migrations.flatMap((m) => d.expect[m.id]?.rewrites?.[table] ?? []);
          const removed = d.migrations.flatMap((m) => d.expect[m.id]?.removes?.[table] ?? []);
          if (dropped) expect(tablesOf(db)).not.toContain(table);
          else
            expect(kept(before, after, table, rewritten, removed), table).toEqual(
              kept(before, before, table, rewritten, removed),
            );
        }
        d.reads?.(db);
      } finally {
        db.close();
      }
    },
  );
});

describe('the comparison across a migration', () => {
  it('sees a row lost, a value changed, or a table gone that was not said', () => {
    for (const planted of [
      "DELETE FROM sync_files WHERE state = 'DELETED'",
      "UPDATE kb_outbox SET op = 'update' WHERE seq = 1",
      'DROP TABLE leads_receiver',
    ]) {
      const m: Migration = { id: 499, name: 'planted', up: planted };
      let lost = false;
      acrossMigration(APP_MIGRATIONS, m, APP_ROWS, (_db, before, after) => {
        lost = Object.keys(before).some(
          (t) => JSON.stringify(asBefore(before, after, t)) !== JSON.stringify(before[t]),
        );
      });
      expect(lost, planted).toBe(true);
    }
  });
});
