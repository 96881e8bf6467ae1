import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import Database from 'better-sqlite3';
import { appVersion } from './app-version';
import { makePrivateFile, tightenIfPresent } from './private-files';

/**
 * One numbered migration. Ids are unique across a database and applied in ascending order, each in
 * its own transaction; a module owns a range (see the registry of each database) so that modules
 * can add tables without touching each other's files.
 */
export interface Migration {
  readonly id: number;
  readonly name: string;
  readonly up: string | ((db: Database.Database) => void);
}

/**
 * A module's block of ids in one database, and its migrations. The registry of each database lists
 * its blocks in id order; test/state/migrations.test.ts checks that every id stays in its block.
 */
export interface MigrationRange {
  readonly owner: string;
  readonly first: number;
  readonly last: number;
  readonly migrations: readonly Migration[];
}

export type Db = Database.Database;

/**
 * A database whose schema a later build changed: migrations this build does not know were applied to it.
 * Opened for writing by this build it could be misread or damaged (a column it does not know, a table it
 * no longer reads), so it is not opened at all. `code` is the error code the app and the CLI show.
 */
export class NewerDatabaseError extends Error {
  readonly code = 'DATA-NEWER';
  constructor(
    readonly file: string,
    /** The version recorded by the build that last wrote it; null when it recorded none. */
    readonly writtenBy: string | null,
    /** The migrations it has that this build does not know. */
    readonly unknown: readonly { id: number; name: string }[],
  ) {
    const by = writtenBy ? `Assets Sync ${writtenBy}` : 'a later version of Assets Sync';
    const ids = unknown.map((m) => m.id).join(', ');
    super(
      `${basename(file)} in the data folder ${dirname(file)} was written by ${by}, newer than this one (${appVersion()}): ` +
        `it has ${unknown.length === 1 ? 'a change' : `${unknown.length} changes`} to its tables this version does not know (migration ${ids}). ` +
        `Nothing was opened or changed. Update Assets Sync${writtenBy ? ` to ${writtenBy} or later` : ''}, ` +
        'or start this version with another data folder (--data-dir DIR).',
    );
    this.name = 'NewerDatabaseError';
  }
}

/**
 * Where a database records its version (docs/architecture.md "State"), apart from the numbered
 * migrations so that no module's id range is touched: `PRAGMA user_version` holds how many migrations it
 * has (read from the file's header, no SQLite connection, so a refused file is not touched), and the table
 * `schema_meta` the build that last wrote it (`written_by`) and its newest migration (`newest_migration`).
 */
const META_TABLE = 'CREATE TABLE IF NOT EXISTS schema_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)';

/** The header's user_version (offset 60, big-endian), or null when the file is not a SQLite database yet. */
function headerUserVersion(file: string): number | null {
  const fd = openSync(file, 'r');
  try {
    const header = Buffer.alloc(100);
    if (readSync(fd, header, 0, 100, 0) < 100) return null;
    if (header.toString('latin1', 0, 16) !== 'SQLite format 3\0') return null;
    return header.readInt32BE(60);
  } finally {
    closeSync(fd);
  }
}

/**
 * Null when this build may open `file` (it does not exist, or has no migration this build does not
 * know); otherwise why not. Read without opening the file: its header, then, only for a newer one, a copy
 * in memory (opening it, even read-only, would add -wal and -shm files to the folder). A newer database
 * whose last changes are still in its -wal file (the newer app crashed) passes here and is caught by
 * `migrate` before anything is written.
 */
export function newerSchema(file: string, migrations: readonly Migration[]): NewerDatabaseError | null {
  if (file === ':memory:' || file === '' || !existsSync(file)) return null;
  const count = headerUserVersion(file);
  if (count === null || count <= migrations.length) return null;
  const bytes = readFileSync(file);
  // A WAL database deserialized into memory must say "rollback journal" (bytes 18 and 19) to be read.
  bytes[18] = 1;
  bytes[19] = 1;
  const copy = new Database(bytes);
  try {
    return newerIn(copy, file, migrations);
  } finally {
    copy.close();
  }
}

function newerIn(db: Db, file: string, migrations: readonly Migration[]): NewerDatabaseError | null {
  const has = (t: string) =>
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(t) !== undefined;
  if (!has('schema_migrations')) return null;
  const known = new Set(migrations.map((m) => m.id));
  const unknown = (
    db.prepare('SELECT id, name FROM schema_migrations ORDER BY id').all() as {
      id: number;
      name: string;
    }[]
  ).filter((m) => !known.has(m.id));
  if (unknown.length === 0) return null;
  const writtenBy = has('schema_meta')
    ? ((db.prepare("SELECT value FROM schema_meta WHERE key = 'written_by'").pluck().get() as
        | string
        | undefined) ?? null)
    : null;
  return new NewerDatabaseError(file, writtenBy, unknown);
}

/**
 * Opens a SQLite file in WAL mode with foreign keys on, and applies the migrations not yet applied.
 * The file is created (or tightened to) 0600 first: SQLite makes its -wal and -shm with the
 * database's own mode, and existing ones are tightened too, unless `tighten` is false (a command
 * that only reads changes no mode; a file it makes is still made 0600).
 *
 * Throws `NewerDatabaseError` for a database a later build migrated (`newerSchema`), before anything
 * in the folder is touched.
 */
export function openDatabase(
  file: string,
  migrations: readonly Migration[],
  o: { tighten?: boolean } = {},
): Db {
  const newer = newerSchema(file, migrations);
  if (newer) throw newer;
  const onDisk = file !== ':memory:' && file !== '';
  if (onDisk) {
    const tighten = o.tighten ?? true;
    makePrivateFile(file, tighten);
    if (tighten) for (const suffix of ['-wal', '-shm']) tightenIfPresent(`${file}${suffix}`);
  }
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    // A later build's migrations whose last changes are still in the -wal file: refused before any write.
    const newer = newerIn(db, file, migrations);
    if (newer) throw newer;
    migrate(db, migrations);
  } catch (e) {
    db.close();
    throw e;
  }
  return db;
}

/** Applies the migrations `db` has not had yet (the ones it has that are not listed stay as they are). */
export function migrate(db: Db, migrations: readonly Migration[]): void {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  db.exec(META_TABLE);
  const ids = new Set<number>();
  for (const m of migrations) {
    if (ids.has(m.id)) throw new Error(`Two migrations share id ${m.id}`);
    ids.add(m.id);
  }
  const applied = new Set(
    (db.prepare('SELECT id FROM schema_migrations').all() as { id: number }[]).map((r) => r.id),
  );
  const record = db.prepare('INSERT INTO schema_migrations (id, name, applied_at) VALUES (?, ?, ?)');
  for (const m of [...migrations].sort((a, b) => a.id - b.id)) {
    if (applied.has(m.id)) continue;
    db.transaction(() => {
      if (typeof m.up === 'string') db.exec(m.up);
      else m.up(db);
      record.run(m.id, m.name, new Date().toISOString());
    })();
  }
  recordVersion(db);
}

/** The version record (written only when it changed: a read-only command's open writes nothing more). */
function recordVersion(db: Db): void {
  const count = (db.prepare('SELECT COUNT(*) FROM schema_migrations').pluck().get() as number) ?? 0;
  const newest = String(db.prepare('SELECT MAX(id) FROM schema_migrations').pluck().get() ?? '');
  const want: Record<string, string> = { written_by: appVersion(), newest_migration: newest };
  const have = Object.fromEntries(
    (db.prepare('SELECT key, value FROM schema_meta').all() as { key: string; value: string }[]).map((r) => [
      r.key,
      r.value,
    ]),
  );
  const put = db.prepare('INSERT OR REPLACE INTO schema_meta (key, value) VALUES (?, ?)');
  db.transaction(() => {
    for (const [k, v] of Object.entries(want)) if (have[k] !== v) put.run(k, v);
    if (db.pragma('user_version', { simple: true }) !== count) db.pragma(`user_version = ${count}`);
  })();
}
