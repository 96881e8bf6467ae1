import type { RemoteFile } from '../../../src-shared/api/file-hosting';
import type { IndexedFile } from '../../../src-shared/contract/remote-index';
import { parseIst } from '../../../src-shared/domain/ist-time';
import { foldForSearch } from '../../../src-shared/domain/search-fold';
import type { Db } from '../../shared-node/sqlite';
import { statements } from '../../shared-node/statements';

/** The account an index belongs to: the same pair the sync rows use (sync/state/account-store.ts). */
export interface IndexAccount {
  service: string;
  clientId: number;
}

/**
 * Where an account's listing passes stand. `watermark`: every live file with an id at or below it
 * was read into the index (null: no pass has reached the oldest file yet). `pass`: a refresh under
 * way, covering ids from `low` to `top`, last at listing page `page`. `walk`: the same for the full
 * walk that finds files deleted elsewhere.
 */
export interface IndexState {
  accountId: number;
  watermark: number | null;
  pass: { top: number; low: number; page: number } | null;
  refreshedAt: number | null;
  walk: { top: number | null; low: number | null; page: number; startedAt: number } | null;
  walkFinishedAt: number | null;
}

interface AccountRow {
  id: number;
  watermark: number | null;
  pass_top: number | null;
  pass_low: number | null;
  pass_page: number | null;
  refreshed_at: number | null;
  walk_top: number | null;
  walk_low: number | null;
  walk_page: number | null;
  walk_started_at: number | null;
  walk_finished_at: number | null;
}

export type FileRowTuple = [
  id: number,
  name: string,
  bucket: string,
  url: string,
  size: number,
  md5: string,
  mime: string,
  extension: string,
  createdAt: string,
];

export const FILE_COLUMNS = 'id, name, bucket, url, size, md5, mime, extension, created_at';

export const toIndexedFile = (r: FileRowTuple): IndexedFile => ({
  id: r[0],
  name: r[1],
  bucket: r[2],
  url: r[3],
  size: r[4],
  md5: r[5],
  mime: r[6],
  extension: r[7],
  createdAt: r[8],
});

/** The service's `YYYY-MM-DD HH:MM` as a number that sorts; a date it cannot read sorts first. */
export const sortableDate = (createdAt: string): number => parseIst(createdAt) ?? 0;

/**
 * Who hears that files went from the service, by database (the app: its folders, issue 31). Told once
 * per turn of the event loop after any removal that means "gone" (a listing without the file, a 410, a
 * delete sent): a microtask, so after the write's transaction has committed and before any other
 * command (a Files view query, a folder card's read) can see the index without the file.
 */
const goneListeners = new WeakMap<Db, Set<() => void>>();
const goneSignalled = new WeakSet<Db>();

/** Calls `listener` after every index write of this database that noted a file gone; returns the unsubscribe. */
export function onIndexGone(db: Db, listener: () => void): () => void {
  const set = goneListeners.get(db) ?? new Set<() => void>();
  goneListeners.set(db, set);
  set.add(listener);
  return () => set.delete(listener);
}

function signalGone(db: Db): void {
  if (goneSignalled.has(db) || !goneListeners.get(db)?.size) return;
  goneSignalled.add(db);
  queueMicrotask(() => {
    goneSignalled.delete(db);
    for (const l of [...(goneListeners.get(db) ?? [])]) l();
  });
}

/** Rows of the remote index and the pass positions of each account. Writes are batched per page. */
export function indexStore(db: Db) {
  const prep = statements(db);

  const upsert = prep(
    `INSERT INTO remote_index_files
       (account_id, id, name, name_fold, bucket, url, size, md5, mime, extension, created_at, created_ms)
     VALUES (@account, @id, @name, @fold, @bucket, @url, @size, @md5, @mime, @extension, @createdAt, @createdMs)
     ON CONFLICT (account_id, id) DO UPDATE SET
       name = excluded.name, name_fold = excluded.name_fold, bucket = excluded.bucket, url = excluded.url,
       size = excluded.size, md5 = excluded.md5, mime = excluded.mime, extension = excluded.extension,
       created_at = excluded.created_at, created_ms = excluded.created_ms
     -- A file read again unchanged (every walk reads them all) writes nothing: no index is touched.
     -- A fold that changed (issue 34 took the accents off) is written again: old rows heal on the next walk.
     WHERE name IS NOT excluded.name OR name_fold IS NOT excluded.name_fold OR bucket IS NOT excluded.bucket OR url IS NOT excluded.url
       OR size IS NOT excluded.size OR md5 IS NOT excluded.md5 OR mime IS NOT excluded.mime
       OR extension IS NOT excluded.extension OR created_at IS NOT excluded.created_at`,
  );
  const known = prep<[number, number], { id: number }>(
    'SELECT id FROM remote_index_files WHERE account_id = ? AND id = ?',
  );
  const deleteOne = prep('DELETE FROM remote_index_files WHERE account_id = ? AND id = ?');
  const noteGone = prep(
    'INSERT INTO remote_index_gone (account_id, id, at) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET at = excluded.at',
  );
  /** Drops a file the service no longer has, and notes it for the sync rows that point at it. */
  const removeOne = {
    run(accountId: number, id: number): { changes: number } {
      const r = deleteOne.run(accountId, id);
      if (r.changes > 0) {
        noteGone.run(accountId, id, Date.now());
        signalGone(db);
      }
      return r;
    },
  };
  const between = prep<[number, number, number], number>(
    'SELECT id FROM remote_index_files WHERE account_id = ? AND id > ? AND id < ? ORDER BY id DESC',
  ).pluck();

  const put = (accountId: number, f: RemoteFile): boolean => {
    const isNew = known.get(accountId, f.id) === undefined;
    upsert.run({
      account: accountId,
      id: f.id,
      name: f.name,
      fold: foldForSearch(f.name),
      bucket: f.bucket,
      url: f.url,
      size: f.size_bytes,
      md5: f.hash,
      mime: f.mime,
      extension: f.extension.toLowerCase(),
      createdAt: f.created_at,
      createdMs: sortableDate(f.created_at),
    });
    return isNew;
  };

  const toState = (r: AccountRow): IndexState => ({
    accountId: r.id,
    watermark: r.watermark,
    pass:
      r.pass_top !== null && r.pass_low !== null && r.pass_page !== null
        ? { top: r.pass_top, low: r.pass_low, page: r.pass_page }
        : null,
    refreshedAt: r.refreshed_at,
    walk:
      r.walk_page !== null && r.walk_started_at !== null
        ? { top: r.walk_top, low: r.walk_low, page: r.walk_page, startedAt: r.walk_started_at }
        : null,
    walkFinishedAt: r.walk_finished_at,
  });

  return {
    /** The account's row, made on first use. */
    accountId(a: IndexAccount): number {
      prep('INSERT INTO remote_index_accounts (service, client_id) VALUES (?, ?) ON CONFLICT DO NOTHING').run(
        a.service,
        a.clientId,
      );
      return prep<[string, number], { id: number }>(
        'SELECT id FROM remote_index_accounts WHERE service = ? AND client_id = ?',
      ).get(a.service, a.clientId)!.id;
    },
    /** Accounts of one service (a delete seen by id applies to whichever of them holds it). */
    accountIdsOf(service: string): number[] {
      return prep<[string], number>('SELECT id FROM remote_index_accounts WHERE service = ?')
        .pluck()
        .all(service);
    },
    lastAccount(service: string): IndexAccount | null {
      return (
        prep<[string], IndexAccount>(
          `SELECT service, client_id AS clientId FROM remote_index_accounts WHERE service = ?
             ORDER BY refreshed_at IS NULL, refreshed_at DESC, id DESC LIMIT 1`,
        ).get(service) ?? null
      );
    },
    state(accountId: number): IndexState {
      return toState(
        prep<[number], AccountRow>('SELECT * FROM remote_index_accounts WHERE id = ?').get(accountId)!,
      );
    },
    setPass(accountId: number, pass: IndexState['pass']): void {
      prep('UPDATE remote_index_accounts SET pass_top = ?, pass_low = ?, pass_page = ? WHERE id = ?').run(
        pass?.top ?? null,
        pass?.low ?? null,
        pass?.page ?? null,
        accountId,
      );
    },
    /** A pass reached what was already known: every file up to `watermark` is in the index. */
    finishPass(accountId: number, watermark: number | null, at: number): void {
      prep(
        `UPDATE remote_index_accounts SET watermark = ?, pass_top = NULL, pass_low = NULL, pass_page = NULL,
           refreshed_at = ? WHERE id = ?`,
      ).run(watermark, at, accountId);
    },
    /**
     * A full walk covered every live file up to `top`: the watermark rises to it, or past it when a
     * refresh pass under way covers the rest above (the pass is then done).
     */
    raiseWatermark(accountId: number, top: number): void {
      const st = toState(
        prep<[number], AccountRow>('SELECT * FROM remote_index_accounts WHERE id = ?').get(accountId)!,
      );
      let mark = Math.max(st.watermark ?? top, top);
      let pass = st.pass;
      if (pass && pass.low <= mark + 1) {
        mark = Math.max(mark, pass.top);
        pass = null;
      }
      prep(
        'UPDATE remote_index_accounts SET watermark = ?, pass_top = ?, pass_low = ?, pass_page = ? WHERE id = ?',
      ).run(mark, pass?.top ?? null, pass?.low ?? null, pass?.page ?? null, accountId);
    },
    touchRefreshed(accountId: number, at: number): void {
      prep('UPDATE remote_index_accounts SET refreshed_at = ? WHERE id = ?').run(at, accountId);
    },
    setWalk(accountId: number, walk: IndexState['walk']): void {
      prep(
        `UPDATE remote_index_accounts SET walk_top = ?, walk_low = ?, walk_page = ?, walk_started_at = ?
           WHERE id = ?`,
      ).run(walk?.top ?? null, walk?.low ?? null, walk?.page ?? null, walk?.startedAt ?? null, accountId);
    },
    finishWalk(accountId: number, at: number): void {
      prep(
        `UPDATE remote_index_accounts SET walk_top = NULL, walk_low = NULL, walk_page = NULL,
           walk_started_at = NULL, walk_finished_at = ? WHERE id = ?`,
      ).run(at, accountId);
    },
    /** Adds or updates files; returns how many were new to the index. */
    put(accountId: number, files: readonly RemoteFile[]): number {
      let added = 0;
      for (const f of files) if (put(accountId, f)) added++;
      return added;
    },
    remove(accountId: number, id: number): boolean {
      return removeOne.run(accountId, id).changes > 0;
    },
    /**
     * A listing page is every live file between its oldest and newest id (the service lists by id,
     * newest first): an indexed id in that range that the page lacks was deleted. Returns how many went.
     */
    removeMissingBetween(accountId: number, low: number, high: number, present: ReadonlySet<number>): number {
      let removed = 0;
      for (const id of between.all(accountId, low - 1, high + 1)) {
        if (!present.has(id) && removeOne.run(accountId, id).changes > 0) removed++;
      }
      return removed;
    },
    /** Indexed ids strictly between two ids, newest first (what two pages of a listing did not show). */
    idsBetween(accountId: number, low: number, high: number): number[] {
      return between.all(accountId, low, high);
    },
    byUrl(accountId: number, url: string): IndexedFile | null {
      const r = prep<[number, string], FileRowTuple>(
        `SELECT ${FILE_COLUMNS} FROM remote_index_files WHERE account_id = ? AND url = ?`,
      )
        .raw()
        .get(accountId, url);
      return r ? toIndexedFile(r) : null;
    },
    /** URLs of a bucket that end in `suffix`, newest first (the versions of one file name). */
    urlsEndingWith(accountId: number, bucket: string, suffix: string): string[] {
      return prep<{ account: number; bucket: string; suffix: string }, string>(
        `SELECT url FROM remote_index_files WHERE account_id = @account AND bucket = @bucket
           AND substr(url, -length(@suffix)) = @suffix ORDER BY id DESC LIMIT 20`,
      )
        .pluck()
        .all({ account: accountId, bucket, suffix });
    },
    count(accountId: number): number {
      return prep<[number], number>('SELECT COUNT(*) FROM remote_index_files WHERE account_id = ?')
        .pluck()
        .get(accountId)!;
    },
    get(accountId: number, id: number): IndexedFile | null {
      const r = prep<[number, number], FileRowTuple>(
        `SELECT ${FILE_COLUMNS} FROM remote_index_files WHERE account_id = ? AND id = ?`,
      )
        .raw()
        .get(accountId, id);
      return r ? toIndexedFile(r) : null;
    },
    /** The listing showed no file at all: none is live. */
    clearFiles(accountId: number): void {
      db.transaction(() => {
        prep(
          'INSERT OR REPLACE INTO remote_index_gone (account_id, id, at) SELECT account_id, id, ? FROM remote_index_files WHERE account_id = ?',
        ).run(Date.now(), accountId);
        prep('DELETE FROM remote_index_files WHERE account_id = ?').run(accountId);
      })();
      signalGone(db);
    },
    /** Indexed files newer than `id` (how many the listing should show before it). */
    countAbove(accountId: number, id: number): number {
      return prep<[number, number], number>(
        'SELECT COUNT(*) FROM remote_index_files WHERE account_id = ? AND id > ?',
      )
        .pluck()
        .get(accountId, id)!;
    },
    /** Files that went from the service since they were last taken (oldest note first), at most `limit`. */
    gone(accountId: number, limit: number): number[] {
      return prep<[number, number], number>(
        'SELECT id FROM remote_index_gone WHERE account_id = ? ORDER BY at, id LIMIT ?',
      )
        .pluck()
        .all(accountId, limit);
    },
    /** The sync rows were told about these. */
    forgetGone(accountId: number, ids: readonly number[]): void {
      prep(
        'DELETE FROM remote_index_gone WHERE account_id = ? AND id IN (SELECT value FROM json_each(?))',
      ).run(accountId, JSON.stringify(ids));
    },
    /** Forgets an account's files and positions (the next refresh lists it from the start). */
    clear(accountId: number): void {
      db.transaction(() => {
        prep('DELETE FROM remote_index_files WHERE account_id = ?').run(accountId);
        prep(
          `UPDATE remote_index_accounts SET watermark = NULL, pass_top = NULL, pass_low = NULL, pass_page = NULL,
             walk_top = NULL, walk_low = NULL, walk_page = NULL, walk_started_at = NULL WHERE id = ?`,
        ).run(accountId);
      })();
    },
  };
}

export type IndexStore = ReturnType<typeof indexStore>;
