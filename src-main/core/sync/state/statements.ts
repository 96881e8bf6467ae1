import type { Statement } from 'better-sqlite3';
import type { Db } from '../../../shared-node/sqlite';

/**
 * Prepared statements kept per SQL text. Preparing costs more than running a small query, and the
 * scheduler runs the same few queries after every file: preparing them each time was the engine's
 * largest cost with many files (profiled with `npm run bench:sync`).
 */
export function statementCache(db: Db) {
  const cache = new Map<string, Statement>();
  return function prep<P extends unknown[] | Record<string, unknown> = unknown[], R = unknown>(
    sql: string,
  ): Statement<P, R> {
    let s = cache.get(sql);
    if (!s) {
      s = db.prepare(sql);
      cache.set(sql, s);
    }
    return s as unknown as Statement<P, R>;
  };
}
