import Database from 'better-sqlite3';
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
 * Opens a SQLite file in WAL mode with foreign keys on, and applies the migrations not yet applied.
 * The file is created (or tightened to) 0600 first: SQLite makes its -wal and -shm with the
 * database's own mode, and existing ones are tightened too, unless `tighten` is false (a command
 * that only reads changes no mode; a file it makes is still made 0600).
 */
export function openDatabase(
  file: string,
  migrations: readonly Migration[],
  o: { tighten?: boolean } = {},
): Db {
  const onDisk = file !== ':memory:' && file !== '';
  if (onDisk) {
    const tighten = o.tighten ?? true;
    makePrivateFile(file, tighten);
    if (tighten) for (const suffix of ['-wal', '-shm']) tightenIfPresent(`${file}${suffix}`);
  }
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db, migrations);
  return db;
}

export function migrate(db: Db, migrations: readonly Migration[]): void {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
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
}
