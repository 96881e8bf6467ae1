import { z } from 'zod';
import {
  type Account,
  AccountSchema,
  type ListMeta,
  ListMetaSchema,
  type RemoteFile,
  RemoteFileSchema,
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

const FilesPage = z.object({ files: z.array(RemoteFileSchema), meta: ListMetaSchema });
const Usage = z.array(UsageSnapshotSchema);

/**
 * The offline copy for the UI: the last account, each listed page of files, each usage range, per
 * source (`sandbox`, or the account's base URL: the sandbox's port changes on every start).
 * Rows are re-validated on read: a row from an older app version that no longer parses is a miss.
 */
export interface ServiceCache {
  putAccount(source: string, account: Account, at?: Date): void;
  getAccount(source: string): Cached<Account> | null;
  putFiles(
    source: string,
    q: { bucket?: string; page: number; perPage: number },
    page: { files: RemoteFile[]; meta: ListMeta },
    at?: Date,
  ): void;
  getFiles(
    source: string,
    q: { bucket?: string; page: number; perPage: number },
  ): Cached<{ files: RemoteFile[]; meta: ListMeta }> | null;
  putUsage(source: string, days: number, snapshots: UsageSnapshot[], at?: Date): void;
  getUsage(source: string, days: number): Cached<UsageSnapshot[]> | null;
  /** Forget one source (logout, sandbox reset). */
  clear(source: string): void;
}

type Kind = 'account' | 'files' | 'usage';

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
  const filesScope = (q: { bucket?: string; page: number; perPage: number }) =>
    `bucket=${q.bucket ?? ''}&page=${q.page}&per_page=${q.perPage}`;

  return {
    putAccount: (source, account, at) => write(source, 'account', '', account, at),
    getAccount: (source) => read(source, 'account', '', AccountSchema),
    putFiles: (source, q, page, at) => write(source, 'files', filesScope(q), page, at),
    getFiles: (source, q) => read(source, 'files', filesScope(q), FilesPage),
    putUsage: (source, days, snapshots, at) => write(source, 'usage', `days=${days}`, snapshots, at),
    getUsage: (source, days) => read(source, 'usage', `days=${days}`, Usage),
    clear: (source) => {
      clear.run(source);
    },
  };
}
