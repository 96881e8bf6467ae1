import type { Db } from '../../../shared-node/sqlite';
import { statements } from '../../../shared-node/statements';

export interface FileRow {
  id: number;
  client_id: number;
  bucket: string;
  name: string;
  url_name: string;
  object_key: string;
  extension: string;
  mime: string;
  size_bytes: number;
  hash: string;
  status: 'ACTIVE' | 'DELETED';
  created_at: number;
  deleted_at: number | null;
}

const COLUMNS =
  'id, client_id, bucket, name, url_name, object_key, extension, mime, size_bytes, hash, status, created_at, deleted_at';
type RawRow = [
  number,
  number,
  string,
  string,
  string,
  string,
  string,
  string,
  number,
  string,
  FileRow['status'],
  number,
  number | null,
];
const fromRaw = (r: RawRow): FileRow => ({
  id: r[0],
  client_id: r[1],
  bucket: r[2],
  name: r[3],
  url_name: r[4],
  object_key: r[5],
  extension: r[6],
  mime: r[7],
  size_bytes: r[8],
  hash: r[9],
  status: r[10],
  created_at: r[11],
  deleted_at: r[12],
});

export type NewFile = Omit<FileRow, 'id' | 'status' | 'deleted_at'>;

/**
 * File rows. Every read is scoped to one client: a row of another client is never returned. Live counts are
 * cached per client and bucket (a list request would otherwise count every live row); every write goes
 * through this store and drops that client's cached counts, so the cache is never stale.
 */
export function fileStore(db: Db) {
  const prep = statements(db);
  const counts = new Map<number, Map<string, number>>();
  const forget = (clientId: number) => counts.delete(clientId);
  const insert = prep(
    `INSERT INTO files (client_id, bucket, name, url_name, object_key, extension, mime, size_bytes, hash, status, created_at)
     VALUES (@client_id, @bucket, @name, @url_name, @object_key, @extension, @mime, @size_bytes, @hash, 'ACTIVE', @created_at)`,
  );
  const byId = prep('SELECT * FROM files WHERE id = ? AND client_id = ?');
  const countLive = prep("SELECT COUNT(*) AS n FROM files WHERE client_id = ? AND status = 'ACTIVE'");
  const countLiveIn = prep(
    "SELECT COUNT(*) AS n FROM files WHERE client_id = ? AND status = 'ACTIVE' AND bucket = ?",
  );
  // Raw rows built into objects here: better-sqlite3's own row objects cost twice as much on a 100-row page.
  const pageLive = prep(
    `SELECT ${COLUMNS} FROM files WHERE client_id = ? AND status = 'ACTIVE' ORDER BY id DESC LIMIT ? OFFSET ?`,
  ).raw();
  const pageLiveIn = prep(
    `SELECT ${COLUMNS} FROM files WHERE client_id = ? AND status = 'ACTIVE' AND bucket = ? ORDER BY id DESC LIMIT ? OFFSET ?`,
  ).raw();
  const totals = prep(
    "SELECT COUNT(*) AS files_count, COALESCE(SUM(size_bytes), 0) AS bytes_used FROM files WHERE client_id = ? AND status = 'ACTIVE'",
  );
  const markDeleted = prep(
    "UPDATE files SET status = 'DELETED', deleted_at = ? WHERE id = ? AND client_id = ? AND status = 'ACTIVE'",
  );
  const liveKeys = prep("SELECT object_key FROM files WHERE client_id = ? AND status = 'ACTIVE'");
  const deleteAll = prep(
    "UPDATE files SET status = 'DELETED', deleted_at = ? WHERE client_id = ? AND status = 'ACTIVE'",
  );
  const byUrl = prep(
    "SELECT f.* FROM files f JOIN clients c ON c.id = f.client_id WHERE f.client_id = ? AND f.bucket = ? AND f.url_name = ? AND f.status = 'ACTIVE' AND c.status != 'CLOSED'",
  );

  return {
    insert(row: NewFile): number {
      forget(row.client_id);
      return Number(insert.run(row).lastInsertRowid);
    },
    get: (clientId: number, id: number) => byId.get(id, clientId) as FileRow | undefined,
    countLive(clientId: number, bucket?: string): number {
      let mine = counts.get(clientId);
      if (!mine) {
        mine = new Map();
        counts.set(clientId, mine);
      }
      const slot = bucket ?? '';
      let n = mine.get(slot);
      if (n === undefined) {
        n = (
          (bucket === undefined ? countLive.get(clientId) : countLiveIn.get(clientId, bucket)) as {
            n: number;
          }
        ).n;
        mine.set(slot, n);
      }
      return n;
    },
    pageLive: (clientId: number, bucket: string | undefined, limit: number, offset: number): FileRow[] =>
      (
        (bucket === undefined
          ? pageLive.all(clientId, limit, offset)
          : pageLiveIn.all(clientId, bucket, limit, offset)) as RawRow[]
      ).map(fromRaw),
    totals: (clientId: number) => totals.get(clientId) as { files_count: number; bytes_used: number },
    /** True when this call deleted it (false: it was already deleted). */
    markDeleted(clientId: number, id: number, at: number): boolean {
      forget(clientId);
      return markDeleted.run(at, id, clientId).changes > 0;
    },
    /** Marks every live file of a client deleted; returns their object keys so the objects can be removed. */
    deleteAllOf: db.transaction((clientId: number, at: number): string[] => {
      forget(clientId);
      const keys = (liveKeys.all(clientId) as { object_key: string }[]).map((r) => r.object_key);
      deleteAll.run(at, clientId);
      return keys;
    }),
    /** What the CDN serves: live files of clients that are not closed. */
    servable: (clientId: number, bucket: string, urlName: string) =>
      byUrl.get(clientId, bucket, urlName) as FileRow | undefined,
  };
}
export type FileStore = ReturnType<typeof fileStore>;
