import type { RemoteFile } from '../../../src-shared/api/file-hosting';
import type { FilesQuery } from '../../../src-shared/contract';
import { parseIst } from '../../../src-shared/domain/ist-time';
import type { Db } from '../../shared-node/sqlite';

/**
 * The last copy of what the views show, per service address: account and usage as JSON, and the
 * files listing as rows so that the Files view can filter, search and page locally (the API has
 * no search, and a scroll through 10,000 files must not spend the request budget).
 */
export function createViewCache(db: Db) {
  const getBlob = db.prepare<[string, string], { json: string; fetched_at: number }>(
    'SELECT json, fetched_at FROM app_view_cache WHERE base_url = ? AND kind = ?',
  );
  const putBlob = db.prepare(
    `INSERT INTO app_view_cache (base_url, kind, json, fetched_at) VALUES (?, ?, ?, ?)
     ON CONFLICT(base_url, kind) DO UPDATE SET json = excluded.json, fetched_at = excluded.fetched_at`,
  );
  const insertFile = db.prepare(
    `INSERT INTO app_remote_files (base_url, id, bucket, name, size_bytes, created_at, json)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(base_url, id) DO UPDATE SET bucket = excluded.bucket, name = excluded.name,
       size_bytes = excluded.size_bytes, created_at = excluded.created_at, json = excluded.json`,
  );
  const deleteFile = db.prepare('DELETE FROM app_remote_files WHERE base_url = ? AND id = ?');
  const clearFiles = db.prepare('DELETE FROM app_remote_files WHERE base_url = ?');
  const bucketsOf = db.prepare<[string], { bucket: string }>(
    'SELECT DISTINCT bucket FROM app_remote_files WHERE base_url = ? ORDER BY bucket',
  );

  const fileRow = (baseUrl: string, f: RemoteFile) =>
    [baseUrl, f.id, f.bucket, f.name, f.size_bytes, sortableDate(f.created_at), JSON.stringify(f)] as const;

  return {
    getBlob<T>(baseUrl: string, kind: string): { value: T; fetchedAt: number } | null {
      const row = getBlob.get(baseUrl, kind);
      return row ? { value: JSON.parse(row.json) as T, fetchedAt: row.fetched_at } : null;
    },
    putBlob(baseUrl: string, kind: string, value: unknown, fetchedAt: number): void {
      putBlob.run(baseUrl, kind, JSON.stringify(value), fetchedAt);
    },
    /** Replaces the whole listing in one transaction: a refresh cut short leaves the old copy whole. */
    replaceFiles(baseUrl: string, files: readonly RemoteFile[], fetchedAt: number): void {
      db.transaction(() => {
        clearFiles.run(baseUrl);
        for (const f of files) insertFile.run(...fileRow(baseUrl, f));
        putBlob.run(baseUrl, 'files', JSON.stringify({ count: files.length }), fetchedAt);
      })();
    },
    upsertFile(baseUrl: string, file: RemoteFile): void {
      insertFile.run(...fileRow(baseUrl, file));
    },
    removeFile(baseUrl: string, id: number): void {
      deleteFile.run(baseUrl, id);
    },
    filesFetchedAt(baseUrl: string): number | null {
      return getBlob.get(baseUrl, 'files')?.fetched_at ?? null;
    },
    buckets(baseUrl: string): string[] {
      return bucketsOf.all(baseUrl).map((r) => r.bucket);
    },
    queryFiles(baseUrl: string, q: Required<Pick<FilesQuery, 'offset' | 'limit'>> & FilesQuery) {
      const where = ['base_url = @baseUrl'];
      const params: Record<string, unknown> = { baseUrl, limit: q.limit, offset: q.offset };
      if (q.bucket) {
        where.push('bucket = @bucket');
        params.bucket = q.bucket;
      }
      if (q.search?.trim()) {
        where.push("name LIKE @search ESCAPE '\\'");
        params.search = `%${q.search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      }
      if (q.minBytes !== undefined) {
        where.push('size_bytes >= @minBytes');
        params.minBytes = q.minBytes;
      }
      if (q.maxBytes !== undefined) {
        where.push('size_bytes <= @maxBytes');
        params.maxBytes = q.maxBytes;
      }
      if (q.from) {
        where.push('created_at >= @from');
        params.from = `${q.from} 00:00`;
      }
      if (q.to) {
        where.push('created_at <= @to');
        params.to = `${q.to} 23:59`;
      }
      const clause = where.join(' AND ');
      const total = (
        db.prepare(`SELECT COUNT(*) AS n FROM app_remote_files WHERE ${clause}`).get(params) as { n: number }
      ).n;
      const rows = db
        .prepare(
          `SELECT json FROM app_remote_files WHERE ${clause} ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`,
        )
        .all(params) as { json: string }[];
      return { total, rows: rows.map((r) => JSON.parse(r.json) as RemoteFile) };
    },
  };
}
export type ViewCache = ReturnType<typeof createViewCache>;

/** `created_at` is `YYYY-MM-DD HH:MM` IST, which already sorts as text; anything else sorts first. */
function sortableDate(text: string): string {
  return parseIst(text) === null ? '0000-00-00 00:00' : text;
}
