// Just over 400 lines: every SQL statement on the `files` table of the sync engine, so that the state
// machine's columns and indexes are read and written in one place.
import type { Db } from '../../../shared-node/sqlite';
import { statements } from '../../../shared-node/statements';
import { REMOVED_BY_YOU } from '../reason-codes';
import { FILE_STATES, type FileRow, type FileState, type FolderCounts } from '../types';
import { ScanIndex } from './scan-index';
import { canMove, type FolderTally, PENDING_STATES, tallyFolder } from './transitions';

/** Columns a transition may set along with the state. */
export type FilePatch = Partial<Omit<FileRow, 'id' | 'folderId' | 'name' | 'state' | 'updatedAt'>>;

const COLUMN: Record<keyof FilePatch, string> = {
  size: 'size',
  mtimeMs: 'mtime_ms',
  inode: 'inode',
  md5: 'md5',
  remoteId: 'remote_id',
  remoteUrl: 'remote_url',
  remoteMd5: 'remote_md5',
  remoteSize: 'remote_size',
  oldRemoteId: 'old_remote_id',
  reasonCode: 'reason_code',
  reason: 'reason',
  attempts: 'attempts',
  nextRetryAt: 'next_retry_at',
  notBefore: 'not_before',
  renamedFrom: 'renamed_from',
  rehashed: 'rehashed',
  priority: 'priority',
};

interface DbRow {
  id: number;
  folder_id: number;
  name: string;
  state: FileState;
  size: number | null;
  mtime_ms: number | null;
  inode: number | null;
  md5: string | null;
  remote_id: number | null;
  remote_url: string | null;
  remote_md5: string | null;
  remote_size: number | null;
  old_remote_id: number | null;
  reason_code: string | null;
  reason: string | null;
  attempts: number;
  next_retry_at: number | null;
  not_before: number | null;
  renamed_from: string | null;
  rehashed: number;
  updated_at: number;
  priority: number;
}

export function toFileRow(r: DbRow): FileRow {
  return {
    id: r.id,
    folderId: r.folder_id,
    name: r.name,
    state: r.state,
    size: r.size,
    mtimeMs: r.mtime_ms,
    inode: r.inode,
    md5: r.md5,
    remoteId: r.remote_id,
    remoteUrl: r.remote_url,
    remoteMd5: r.remote_md5,
    remoteSize: r.remote_size,
    oldRemoteId: r.old_remote_id,
    reasonCode: r.reason_code,
    reason: r.reason,
    attempts: r.attempts,
    nextRetryAt: r.next_retry_at,
    notBefore: r.not_before,
    renamedFrom: r.renamed_from,
    rehashed: r.rehashed === 1,
    updatedAt: r.updated_at,
    priority: r.priority ?? 0,
  };
}

export interface Transition {
  row: FileRow;
  from: FileState;
}

export class IllegalTransitionError extends Error {
  readonly code = 'ILLEGAL-TRANSITION';
}

export interface FileQuery {
  folderId?: number;
  state?: FileState;
  afterId?: number;
  limit?: number;
}

/**
 * Rows per page of a scan's read: each page takes a few ms and its arrays die young. find's output is
 * read between two pages, and the pipe holds about 200 KB, so find waits while a page takes longer
 * than find needs to write that much (busy, a 5,000-row page did).
 */
const SCAN_PAGE = 2_500;
/** SQLite's page cache while a scan reads the table (SQLite's own default, 2 MB; negative = KiB). */
const SCAN_CACHE_SIZE = -2_000;
/** A row's state as its index in FILE_STATES (scan-index.ts keeps one byte per row). */
const STATE_NUMBER = `CASE state ${FILE_STATES.map((s, i) => `WHEN '${s}' THEN ${i}`).join(' ')} END`;
type ScanPageRow = [Buffer | null, string, string, string, string, string, string, number | null];

/** PENDING_STATES as SQL; with FAILED rows that have a retry time, the rows isPending() counts. */
const PENDING_SQL = PENDING_STATES.map((s) => `'${s}'`).join(',');

/**
 * A scan's read passes over every page of the table once: SQLite's page cache (16 MB in better-sqlite3's
 * build) gains nothing from it and would keep them all, resident for the life of the process. While
 * scans read, the connection runs with a small cache; the last scan to finish gives it its limit back.
 */
function scanPageCache(db: Db): { enter(): void; leave(): void } {
  const known = pageCaches.get(db);
  if (known) return known;
  let reading = 0;
  let limit = 0;
  const cache = {
    enter() {
      if (reading++ === 0) {
        limit = db.pragma('cache_size', { simple: true }) as number;
        db.pragma(`cache_size = ${SCAN_CACHE_SIZE}`);
      }
    },
    leave() {
      if (--reading === 0) db.pragma(`cache_size = ${limit}`);
    },
  };
  pageCaches.set(db, cache);
  return cache;
}

/** One per connection: every store of it counts the same scans. */
const pageCaches = new WeakMap<Db, { enter(): void; leave(): void }>();

/** The rows of local files. Each state change is one SQLite transaction (read, check, write). */
export function filesStore(db: Db, now: () => number = Date.now) {
  const prep = statements(db);
  const byId = prep<[number], DbRow>('SELECT * FROM sync_files WHERE id = ?');
  const byName = prep<[number, string], DbRow>('SELECT * FROM sync_files WHERE folder_id = ? AND name = ?');
  const insert = prep(
    `INSERT INTO sync_files (folder_id, name, state, size, mtime_ms, inode, not_before, updated_at)
     VALUES (?, ?, 'NEW', ?, ?, ?, ?, ?)`,
  );
  const updates = new Map<string, ReturnType<Db['prepare']>>();

  const scanPage = prep<[number, number, number], ScanPageRow>(
    `SELECT CAST(group_concat(name, char(0)) AS BLOB), json_group_array(id), json_group_array(state),
            json_group_array(size), json_group_array(mtime_ms), json_group_array(inode),
            json_group_array(reason_code), max(id)
       FROM (SELECT id, name, ${STATE_NUMBER} AS state, size, mtime_ms, inode, reason_code
               FROM sync_files NOT INDEXED WHERE folder_id = ? AND id > ? ORDER BY id LIMIT ?)`,
  ).raw();
  const pageCache = scanPageCache(db);

  const get = (id: number): FileRow | null => {
    const r = byId.get(id);
    return r ? toFileRow(r) : null;
  };

  const write = (id: number, to: FileState, patch: FilePatch) => {
    const keys = Object.keys(patch).filter(
      (k) => k in COLUMN && (patch as Record<string, unknown>)[k] !== undefined,
    ) as (keyof FilePatch)[];
    const sqlKey = keys.join(',');
    let stmt = updates.get(sqlKey);
    if (!stmt) {
      const sets = keys.map((k) => `${COLUMN[k]} = @${k}`);
      stmt = prep(
        `UPDATE sync_files SET state = @state, updated_at = @updatedAt${sets.length ? `, ${sets.join(', ')}` : ''} WHERE id = @id`,
      );
      updates.set(sqlKey, stmt);
    }
    const params: Record<string, unknown> = { id, state: to, updatedAt: now() };
    for (const k of keys) {
      const v = patch[k];
      params[k] = typeof v === 'boolean' ? (v ? 1 : 0) : v;
    }
    stmt.run(params);
  };

  /** Changes a row's state to `to`, checked by the state machine; `expect` guards against a row that moved meanwhile. */
  const transition = db.transaction(
    (id: number, to: FileState, patch: FilePatch = {}, expect?: readonly FileState[]): Transition | null => {
      const current = byId.get(id);
      if (!current) return null;
      if (expect && !expect.includes(current.state)) return null;
      if (!canMove(current.state, to)) {
        throw new IllegalTransitionError(`A file cannot go from ${current.state} to ${to} (row ${id}).`);
      }
      write(id, to, patch);
      return { row: get(id)!, from: current.state };
    },
  );

  function counts(folderId?: number): FolderCounts {
    const out = Object.fromEntries(FILE_STATES.map((s) => [s, 0])) as FolderCounts;
    const rows = prep<[number | null, number | null], { state: FileState; n: number }>(
      'SELECT state, COUNT(*) AS n FROM sync_files WHERE (? IS NULL OR folder_id = ?) GROUP BY state',
    ).all(folderId ?? null, folderId ?? null);
    for (const r of rows) out[r.state] = r.n;
    return out;
  }

  /** FAILED rows with a retry time: pending, unlike FAILED for good (transitions.ts tallyFolder). */
  function failedRetrying(folderId?: number): number {
    return (
      prep<[number | null, number | null], { n: number }>(
        `SELECT COUNT(*) AS n FROM sync_files WHERE state = 'FAILED' AND next_retry_at IS NOT NULL
           AND (? IS NULL OR folder_id = ?)`,
      ).get(folderId ?? null, folderId ?? null)?.n ?? 0
    );
  }

  /** SKIPPED rows the person removed from the CDN in the Files view ("stop syncing them"). */
  function removedByYou(folderId?: number): number {
    return (
      prep<[string, number | null, number | null], { n: number }>(
        `SELECT COUNT(*) AS n FROM sync_files WHERE state = 'SKIPPED' AND reason_code = ?
           AND (? IS NULL OR folder_id = ?)`,
      ).get(REMOVED_BY_YOU, folderId ?? null, folderId ?? null)?.n ?? 0
    );
  }

  return {
    get,
    getByName(folderId: number, name: string): FileRow | null {
      const r = byName.get(folderId, name);
      return r ? toFileRow(r) : null;
    },
    transition,
    /** Creates a NEW row (outside a transaction of its own: the scanner batches these). */
    insertNew(
      folderId: number,
      name: string,
      stat: { size: number; mtimeMs: number; inode: number },
      notBefore: number,
    ): number {
      return Number(
        insert.run(folderId, name, stat.size, stat.mtimeMs, stat.inode, notBefore, now()).lastInsertRowid,
      );
    },
    /** Sets a row's place in the queue (engine/priority.ts). */
    setPriority(id: number, priority: number): void {
      prep<[number, number], never>('UPDATE sync_files SET priority = ? WHERE id = ?').run(priority, id);
    },
    /** Puts rows the watcher saw in the live lane (newest first), unless "Upload now" put them higher. */
    markSeenLive(folderId: number, names: readonly string[], at: number): void {
      const st = prep<[number, number, string, number], never>(
        `UPDATE sync_files SET priority = ? WHERE folder_id = ? AND name = ? AND priority < ?
           AND state IN ('NEW', 'HASHING', 'QUEUED', 'PAUSED')`,
      );
      for (const n of names) st.run(at, folderId, n, at);
    },
    /** Rows of a folder, whatever their state (a scan's first guess at the size of its index). */
    countIn(folderId: number): number {
      return prep<[number], { n: number }>('SELECT COUNT(*) AS n FROM sync_files WHERE folder_id = ?').get(
        folderId,
      )!.n;
    },
    /**
     * What a scan compares with the disk, for every row of a folder (scan-index.ts): read in table
     * order (no index lookups), in pages of SCAN_PAGE rows, each page one row of SQL: the paths joined
     * (UTF-8 bytes) and one JSON array per column. No JS object is made per row, and what a page
     * makes dies young (100,000 rows in about 0.1 s; as tuples they took twice that and 20 MB of heap).
     *
     * The event loop gets a turn between pages, so that find's output is read while the rows are
     * (list-tree.ts holds it): the two run side by side. Each page is read on its own; a row changed
     * in between is seen as one of the two versions, as if the whole read had come a moment earlier or
     * later, and the scanner reads a row again before it acts on it.
     */
    async scanIndex(folderId: number, rows?: number): Promise<ScanIndex> {
      const index = new ScanIndex(rows ?? this.countIn(folderId));
      pageCache.enter();
      try {
        for (let after = 0; ; ) {
          const [names, ids, states, sizes, mtimes, inodes, reasons, last] = scanPage.get(
            folderId,
            after,
            SCAN_PAGE,
          )!;
          if (last === null) break;
          index.addPage(names ?? Buffer.alloc(0), {
            ids: JSON.parse(ids),
            states: JSON.parse(states),
            sizes: JSON.parse(sizes),
            mtimes: JSON.parse(mtimes),
            inodes: JSON.parse(inodes),
            reasons: JSON.parse(reasons),
          });
          after = last;
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
        return index;
      } catch (e) {
        index.release();
        throw e;
      } finally {
        pageCache.leave();
      }
    },
    /** Rows under a path (the path itself or anything below it), for a directory's delete event. */
    underPath(folderId: number, name: string): FileRow[] {
      const esc = name.replace(/[\\%_]/g, (c) => `\\${c}`);
      return prep<[number, string, string], DbRow>(
        `SELECT * FROM sync_files WHERE folder_id = ? AND (name = ? OR name LIKE ? ESCAPE '\\') AND state NOT IN ('DELETED')`,
      )
        .all(folderId, name, `${esc}/%`)
        .map(toFileRow);
    },
    inState(
      state: FileState,
      limit: number,
      opts: { dueBy?: number; excludeFolders?: readonly number[]; maxSize?: number } = {},
    ): FileRow[] {
      const where = ['state = @state'];
      if (opts.dueBy !== undefined)
        where.push('(COALESCE(next_retry_at, 0) <= @dueBy AND COALESCE(not_before, 0) <= @dueBy)');
      if (opts.excludeFolders?.length)
        where.push(`folder_id NOT IN (${opts.excludeFolders.map(Number).join(',')})`);
      if (opts.maxSize !== undefined) where.push('COALESCE(size, 0) <= @maxSize');
      // Priority lanes (engine/priority.ts): "Upload now", then what the watcher saw (newest first), then the backlog in table order.
      return prep<Record<string, unknown>, DbRow>(
        `SELECT * FROM sync_files WHERE ${where.join(' AND ')} ORDER BY priority DESC, id LIMIT @limit`,
      )
        .all({ state, limit, dueBy: opts.dueBy ?? 0, maxSize: opts.maxSize ?? 0 })
        .map(toFileRow);
    },
    /** Rows of the folder with the same content that are live or were just deleted locally (rename candidates). */
    sameContent(folderId: number, size: number, md5: string, exceptId: number): FileRow[] {
      return prep<[number, number, string, number, number], DbRow>(
        `SELECT * FROM sync_files WHERE folder_id = ? AND size = ? AND md5 = ? AND id != ? AND remote_id IS NOT NULL
             AND (state = 'LIVE' OR (state IN ('DELETING', 'DELETED') AND reason_code IN ('LOCAL-DELETE', 'MIRROR-DELETED') AND updated_at > ?))`,
      )
        .all(folderId, size, md5, exceptId, now() - 60_000)
        .map(toFileRow);
    },
    /** Whether another row of the folder of this size could be a rename's source (see sameContent). */
    hasSameSize(folderId: number, size: number, exceptId: number): boolean {
      return (
        prep<[number, number, number, number], { x: number }>(
          `SELECT 1 AS x FROM sync_files WHERE folder_id = ? AND size = ? AND id != ? AND remote_id IS NOT NULL
             AND (state = 'LIVE' OR (state IN ('DELETING', 'DELETED') AND reason_code IN ('LOCAL-DELETE', 'MIRROR-DELETED') AND updated_at > ?))
           LIMIT 1`,
        ).get(folderId, size, exceptId, now() - 60_000) !== undefined
      );
    },
    /** FAILED rows whose stored retry time has come. */
    dueRetries(limit: number, at: number): FileRow[] {
      return prep<[number, number], DbRow>(
        `SELECT * FROM sync_files WHERE state = 'FAILED' AND next_retry_at IS NOT NULL AND next_retry_at <= ? ORDER BY next_retry_at LIMIT ?`,
      )
        .all(at, limit)
        .map(toFileRow);
    },
    /**
     * Moves every stored wait (retry times, stability windows, remote-delete retries) by `ms`: the wall
     * clock stepped while the engine ran (engine/wall-steps.ts), and a wait stored before the step
     * must still end when it was meant to.
     */
    shiftWaits(ms: number): void {
      db.transaction(() => {
        prep<[number]>(
          'UPDATE sync_files SET next_retry_at = next_retry_at + ? WHERE next_retry_at IS NOT NULL',
        ).run(ms);
        prep<[number]>('UPDATE sync_files SET not_before = not_before + ? WHERE not_before IS NOT NULL').run(
          ms,
        );
        prep<[number]>(
          'UPDATE sync_trash SET next_retry_at = next_retry_at + ? WHERE next_retry_at IS NOT NULL',
        ).run(ms);
      })();
    },
    /**
     * No stored wait ends after `latest`: one stored before the wall clock stepped back while the engine
     * was not running waits at most the policy's longest delay, not the step too.
     */
    capWaits(latest: number): void {
      db.transaction(() => {
        prep<[number, number]>('UPDATE sync_files SET next_retry_at = ? WHERE next_retry_at > ?').run(
          latest,
          latest,
        );
        prep<[number, number]>('UPDATE sync_files SET not_before = ? WHERE not_before > ?').run(
          latest,
          latest,
        );
        prep<[number, number]>('UPDATE sync_trash SET next_retry_at = ? WHERE next_retry_at > ?').run(
          latest,
          latest,
        );
      })();
    },
    /** The earliest time a waiting row becomes due (retry or stability window), or null. */
    nextDue(): number | null {
      // One MIN per state, so that each is read from the end of an index instead of a scan.
      const r = prep<[], { t: number | null }>(
        `SELECT MIN(t) AS t FROM (
             SELECT MIN(next_retry_at) AS t FROM sync_files WHERE state = 'FAILED' AND next_retry_at IS NOT NULL
             UNION ALL SELECT MIN(not_before) FROM sync_files WHERE state = 'NEW' AND not_before IS NOT NULL
             UNION ALL SELECT MIN(not_before) FROM sync_files WHERE state = 'QUEUED' AND not_before IS NOT NULL
             UNION ALL SELECT MIN(not_before) FROM sync_files WHERE state = 'DELETING' AND not_before IS NOT NULL
             UNION ALL SELECT MIN(next_retry_at) FROM sync_trash WHERE next_retry_at IS NOT NULL)`,
      ).get();
      return r?.t ?? null;
    },
    list(q: FileQuery): FileRow[] {
      const where = ['id > @afterId'];
      if (q.folderId !== undefined) where.push('folder_id = @folderId');
      if (q.state !== undefined) where.push('state = @state');
      return prep<Record<string, unknown>, DbRow>(
        `SELECT * FROM sync_files WHERE ${where.join(' AND ')} ORDER BY id LIMIT @limit`,
      )
        .all({
          afterId: q.afterId ?? 0,
          folderId: q.folderId ?? null,
          state: q.state ?? null,
          limit: Math.min(q.limit ?? 100, 1000),
        })
        .map(toFileRow);
    },
    counts,
    /** Work left: rows pending, retries scheduled; null folder = every folder. */
    pendingCount(folderId?: number): number {
      return (
        prep<[number | null, number | null, number | null, number | null], { n: number }>(
          `SELECT (SELECT COUNT(*) FROM sync_files WHERE state IN (${PENDING_SQL}) AND (? IS NULL OR folder_id = ?))
                + (SELECT COUNT(*) FROM sync_files WHERE state = 'FAILED' AND next_retry_at IS NOT NULL
                     AND (? IS NULL OR folder_id = ?)) AS n`,
        ).get(folderId ?? null, folderId ?? null, folderId ?? null, folderId ?? null)?.n ?? 0
      );
    },
    failedRetrying,
    /** A folder's files as every view counts them (transitions.ts tallyFolder). */
    tally: (folderId?: number): FolderTally =>
      tallyFolder(counts(folderId), failedRetrying(folderId), removedByYou(folderId)),
    /** Whether any work is left: cheaper than counting it (the scheduler asks after every file). */
    hasPending(folderId?: number): boolean {
      const r =
        folderId === undefined
          ? prep<[], { x: number }>(
              `SELECT EXISTS (SELECT 1 FROM sync_files WHERE state IN (${PENDING_SQL}))
                   OR EXISTS (SELECT 1 FROM sync_files WHERE state = 'FAILED' AND next_retry_at IS NOT NULL) AS x`,
            ).get()
          : prep<[number, number], { x: number }>(
              `SELECT EXISTS (SELECT 1 FROM sync_files WHERE state IN (${PENDING_SQL}) AND folder_id = ?)
                   OR EXISTS (SELECT 1 FROM sync_files WHERE state = 'FAILED' AND folder_id = ? AND next_retry_at IS NOT NULL) AS x`,
            ).get(folderId, folderId);
      return r?.x === 1;
    },
    /** Whether any row holds a remote id (of the account the rows were synced with). */
    hasRemotes(): boolean {
      return (
        prep<[], { x: number }>(
          'SELECT EXISTS (SELECT 1 FROM sync_files WHERE remote_id IS NOT NULL OR old_remote_id IS NOT NULL) AS x',
        ).get()?.x === 1
      );
    },
    /**
     * Forgets every remote id, URL and remote md5 at once (the rows now belong to another account).
     * No state changes: the caller moves the rows that need one first.
     */
    forgetRemotes(): number {
      return prep(
        `UPDATE sync_files SET remote_id = NULL, remote_url = NULL, remote_md5 = NULL, remote_size = NULL,
           old_remote_id = NULL WHERE remote_id IS NOT NULL OR old_remote_id IS NOT NULL OR remote_url IS NOT NULL`,
      ).run().changes;
    },
    remoteIdsOwned(): Set<number> {
      const ids = prep<[], { id: number }>(
        `SELECT remote_id AS id FROM sync_files WHERE remote_id IS NOT NULL UNION SELECT old_remote_id FROM sync_files WHERE old_remote_id IS NOT NULL UNION SELECT remote_id FROM sync_trash`,
      ).all();
      return new Set(ids.map((r) => r.id));
    },
    bytes(states: readonly FileState[]): number {
      return (
        prep<[], { b: number | null }>(
          `SELECT SUM(size) AS b FROM sync_files WHERE state IN (${states.map((s) => `'${s}'`).join(',')})`,
        ).get()?.b ?? 0
      );
    },
  };
}

export type FilesStore = ReturnType<typeof filesStore>;
