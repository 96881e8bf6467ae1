import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { APP_MIGRATION_RANGES, APP_MIGRATIONS } from '../../src-main/core/state/migrations';
import { SERVER_MIGRATION_RANGES, SERVER_MIGRATIONS } from '../../src-main/reference-server/db/migrations';
import { type Migration, type MigrationRange, openDatabase } from '../../src-main/shared-node/sqlite';
import { schemaOf } from '../support/schema';

// The migrations of both databases: every id in its module's block, and a fresh database equal in
// schema to one upgraded from each released schema kept in test/fixtures (<db>-schema-<version>.sql,
// made by test/fixtures/dump-schema.ts). Real SQLite files in a temp folder.
const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
const dir = mkdtempSync(join(tmpdir(), 'assets-migrations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const file = () => join(dir, `db-${++n}.sqlite`);

function fresh(migrations: readonly Migration[]) {
  const db = openDatabase(file(), migrations);
  const schema = schemaOf(db);
  db.close();
  return schema;
}

/** A database as the release left it (the fixture's SQL), then opened by today's code. */
function upgraded(fixture: string, migrations: readonly Migration[]) {
  const path = file();
  const old = new Database(path);
  old.exec(readFileSync(join(FIXTURES, fixture), 'utf8'));
  const released = old.prepare('SELECT id, name FROM schema_migrations ORDER BY id').all();
  old.close();
  const db = openDatabase(path, migrations);
  const schema = schemaOf(db);
  db.close();
  return { released, schema };
}

const DATABASES: {
  name: string;
  prefix: string;
  ranges: readonly MigrationRange[];
  migrations: readonly Migration[];
}[] = [
  { name: 'the app', prefix: 'app', ranges: APP_MIGRATION_RANGES, migrations: APP_MIGRATIONS },
  {
    name: 'the reference server',
    prefix: 'server',
    ranges: SERVER_MIGRATION_RANGES,
    migrations: SERVER_MIGRATIONS,
  },
];

const fixturesOf = (prefix: string) =>
  readdirSync(FIXTURES).filter((f) => new RegExp(`^${prefix}-schema-\\d+\\.\\d+\\.\\d+\\.sql$`).test(f));

describe.each(DATABASES)('migrations of $name database', ({ prefix, ranges, migrations }) => {
  it('keep each module in its block of ids, blocks apart and in order', () => {
    for (const r of ranges) {
      for (const m of r.migrations)
        expect(m.id >= r.first && m.id <= r.last, `${r.owner}: id ${m.id} outside ${r.first}-${r.last}`).toBe(
          true,
        );
    }
    for (let i = 1; i < ranges.length; i++) expect(ranges[i]!.first).toBeGreaterThan(ranges[i - 1]!.last);
  });

  it('have unique, strictly increasing ids in the order they are listed', () => {
    const ids = migrations.map((m) => m.id);
    for (let i = 1; i < ids.length; i++) expect(ids[i], `after ${ids[i - 1]}`).toBeGreaterThan(ids[i - 1]!);
  });

  it('have a released schema kept in test/fixtures', () => {
    expect(fixturesOf(prefix).length).toBeGreaterThan(0);
  });

  it.each(fixturesOf(prefix))(
    'upgrade %s to the same schema as a fresh database, keeping every released migration',
    (fixture) => {
      const { released, schema } = upgraded(fixture, migrations);
      // A released migration keeps its id and its name: it ran on users' machines as it was.
      const today = migrations.map((m) => ({ id: m.id, name: m.name }));
      for (const r of released) expect(today).toContainEqual(r);
      expect(schema).toEqual(fresh(migrations));
    },
  );
});

describe('the schema comparison', () => {
  const [fixture] = fixturesOf('app');

  it('sees a released migration that was edited afterwards', () => {
    // As if someone added an index to migration 1 after the release: fresh databases get it, upgraded ones never do.
    const edited = APP_MIGRATIONS.map((m) =>
      m.id === 1 && typeof m.up === 'string'
        ? { ...m, up: `${m.up};\nCREATE INDEX x ON sync_files (md5)` }
        : m,
    );
    expect(edited).not.toEqual(APP_MIGRATIONS);
    expect(upgraded(fixture!, edited).schema).not.toEqual(fresh(edited));
  });

  it('sees a column, an index, a trigger or a view more', () => {
    const noop: Migration = { id: 399, name: 'planted', up: 'SELECT 1' };
    const base = fresh([...APP_MIGRATIONS, noop]);
    expect(fresh([...APP_MIGRATIONS, noop])).toEqual(base);
    for (const change of [
      'ALTER TABLE app_settings ADD COLUMN extra TEXT',
      'CREATE INDEX planted ON app_settings (value)',
      'CREATE TRIGGER planted AFTER INSERT ON app_settings BEGIN SELECT 1; END',
      'CREATE VIEW planted AS SELECT key FROM app_settings',
    ]) {
      expect(fresh([...APP_MIGRATIONS, { ...noop, up: change }]), change).not.toEqual(base);
    }
  });
});
