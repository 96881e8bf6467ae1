import type { Statement } from 'better-sqlite3';
import type { Db } from './sqlite';

/** Enough for every statement text of the app; a store that builds SQL from values (an IN list) cannot grow it without end. */
export const MAX_STATEMENTS = 500;

const caches = new WeakMap<Db, Map<string, Statement>>();

/**
 * Prepared statements of one database, kept by SQL text and shared by every module that uses it.
 * Preparing costs more than running a small query, and stores run the same few queries again and
 * again: preparing them each time was the sync engine's largest cost with many files (profiled with
 * `npm run bench:sync`).
 *
 * A cached statement is shared: a mode set on it (`raw()`, `pluck()`, `expand()`) stays for every
 * caller of the same text, and a statement cannot run again while its own `iterate()` is open.
 */
export function statements(db: Db) {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  const known = cache;
  return function prep<P extends unknown[] | Record<string, unknown> = unknown[], R = unknown>(
    sql: string,
  ): Statement<P, R> {
    let s = known.get(sql);
    if (!s) {
      if (known.size >= MAX_STATEMENTS) known.delete(known.keys().next().value!);
      s = db.prepare(sql);
      known.set(sql, s);
    }
    return s as unknown as Statement<P, R>;
  };
}
