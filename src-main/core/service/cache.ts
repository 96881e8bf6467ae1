import { z } from 'zod';
import {
  type Account,
  AccountSchema,
  type UsageSnapshot,
  UsageSnapshotSchema,
} from '../../../src-shared/api/file-hosting';
import type { Db } from '../../shared-node/sqlite';
import { statements } from '../../shared-node/statements';

/** A copy of what the service said, and when (ISO 8601 UTC). */
export interface Cached<T> {
  value: T;
  fetchedAt: string;
}

const Usage = z.array(UsageSnapshotSchema);

/**
 * The offline copy for the UI: the last account and each usage range, per source (`sandbox`, or the
 * account's base URL). The account's files are the remote index's (docs/remote-index.md); the listing
 * this cache once held went with issue 18 (migration 97 drops its rows).
 * Rows are re-validated on read: a row from an older app version that no longer parses is a miss.
 */
export interface ServiceCache {
  putAccount(source: string, account: Account, at?: Date): void;
  getAccount(source: string): Cached<Account> | null;
  putUsage(source: string, days: number, snapshots: UsageSnapshot[], at?: Date): void;
  getUsage(source: string, days: number): Cached<UsageSnapshot[]> | null;
  /** Forget one source (logout, sandbox reset). */
  clear(source: string): void;
}

type Kind = 'account' | 'usage';

export function serviceCache(db: Db): ServiceCache {
  const prep = statements(db);
  const put = prep(
    `INSERT INTO service_cache (source, kind, scope, json, fetched_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (source, kind, scope) DO UPDATE SET json = excluded.json, fetched_at = excluded.fetched_at`,
  );
  const get = prep<[string, Kind, string], { json: string; fetched_at: string }>(
    'SELECT json, fetched_at FROM service_cache WHERE source = ? AND kind = ? AND scope = ?',
  );
  const clear = prep('DELETE FROM service_cache WHERE source = ?');

  function write(source: string, kind: Kind, scope: string, value: unknown, at = new Date()): void {
    put.run(source, kind, scope, JSON.stringify(value), at.toISOString());
  }
  function read<T>(source: string, kind: Kind, scope: string, schema: z.ZodType<T>): Cached<T> | null {
    const row = get.get(source, kind, scope);
    if (!row) return null;
    let json: unknown;
    try {
      json = JSON.parse(row.json);
    } catch {
      return null;
    }
    const parsed = schema.safeParse(json);
    return parsed.success ? { value: parsed.data, fetchedAt: row.fetched_at } : null;
  }

  return {
    putAccount: (source, account, at) => write(source, 'account', '', account, at),
    getAccount: (source) => read(source, 'account', '', AccountSchema),
    putUsage: (source, days, snapshots, at) => write(source, 'usage', `days=${days}`, snapshots, at),
    getUsage: (source, days) => read(source, 'usage', `days=${days}`, Usage),
    clear: (source) => {
      clear.run(source);
    },
  };
}
