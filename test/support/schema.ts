import type { Db } from '../../src-main/shared-node/sqlite';

// A database's schema as data, to compare two databases (a fresh one and one upgraded from a
// release), and as SQL text, to keep a release's schema in git (test/fixtures/*-schema-*.sql).

const collapse = (sql: string | null) => (sql ?? '').replace(/\s+/g, ' ').trim();

/** Every table, index, view and trigger with its SQL, columns, index keys and foreign keys; and the applied migrations. */
export function schemaOf(db: Db) {
  const objects = db
    .prepare(
      "SELECT type, name, tbl_name AS tbl, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_stat%' ORDER BY type, name",
    )
    .all() as { type: string; name: string; tbl: string; sql: string | null }[];
  const tables = objects.filter((o) => o.type === 'table').map((o) => o.name);
  const indexes = objects.filter((o) => o.type === 'index').map((o) => o.name);
  return {
    objects: objects.map((o) => ({ ...o, sql: collapse(o.sql) })),
    columns: Object.fromEntries(tables.map((t) => [t, db.pragma(`table_info("${t}")`)])),
    foreignKeys: Object.fromEntries(tables.map((t) => [t, db.pragma(`foreign_key_list("${t}")`)])),
    indexLists: Object.fromEntries(tables.map((t) => [t, sortByName(db.pragma(`index_list("${t}")`))])),
    indexKeys: Object.fromEntries(indexes.map((i) => [i, db.pragma(`index_xinfo("${i}")`)])),
    migrations: db.prepare('SELECT id, name FROM schema_migrations ORDER BY id').all(),
  };
}

const sortByName = (rows: unknown) =>
  (rows as { name: string }[]).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

/**
 * The schema as a script that rebuilds it: each CREATE as SQLite keeps it (in creation order) and the
 * rows of schema_migrations. Indexes that SQLite makes itself (UNIQUE, AUTOINCREMENT) come with their tables.
 */
export function dumpSchema(db: Db, header: string[]): string {
  const creates = db
    .prepare(
      "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid",
    )
    .pluck()
    .all() as string[];
  const rows = db.prepare('SELECT id, name, applied_at FROM schema_migrations ORDER BY id').all() as {
    id: number;
    name: string;
    applied_at: string;
  }[];
  const quote = (s: string) => `'${s.replaceAll("'", "''")}'`;
  return [
    ...header.map((h) => `-- ${h}`),
    ...creates.map((sql) => `${sql};`),
    ...rows.map(
      (r) =>
        `INSERT INTO schema_migrations (id, name, applied_at) VALUES (${r.id}, ${quote(r.name)}, ${quote(r.applied_at)});`,
    ),
    '',
  ].join('\n');
}
