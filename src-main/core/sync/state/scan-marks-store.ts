import type { Db } from '../../../shared-node/sqlite';
import { statements } from '../../../shared-node/statements';

/**
 * What the last consistent scan of a folder saw: a digest of the walk's whole output (scan-mark.ts)
 * and the folder's row generation then. A scan that finds the same output while the generation has
 * not moved would compare every file and change nothing, so it can stop there without reading the
 * rows (scanner.ts): a restart over an unchanged tree then costs about what `find` costs.
 *
 * The generation (`gen`) is counted by SQLite triggers (migration 12) on every change to a row that a
 * scan's comparison reads: a row added or removed, its name, size, mtime, inode or reason code, or its
 * state into or out of the plain cycle of an upload (NEW, HASHING, QUEUED, UPLOADING, LIVE, PAUSED),
 * which the comparison treats alike. An upload that goes its usual way counts nothing, so a mark made
 * by the scan after the watcher started still holds at the next start. Triggers rather than the store's
 * own writes: no path that writes a row can forget to count.
 */
export interface ScanMark {
  /** The generation when the mark was made; it holds while `gen` is the same. */
  markGen: number;
  digest: string;
  /** Files the scan listed (after the ignore rules). */
  files: number;
  /** The ignored-files list of that scan, as JSON (ignored-files.ts), shown again when a scan stops early. */
  ignored: string;
}

interface MarkRow {
  gen: number;
  mark_gen: number | null;
  digest: string | null;
  files: number | null;
  ignored: string | null;
}

export function scanMarksStore(db: Db) {
  const prep = statements(db);
  const ensure = prep<[number]>('INSERT OR IGNORE INTO sync_scan_marks (folder_id) VALUES (?)');
  const read = prep<[number], MarkRow>(
    'SELECT gen, mark_gen, digest, files, ignored FROM sync_scan_marks WHERE folder_id = ?',
  );
  const write = prep<[string, number, string, number, number]>(
    `UPDATE sync_scan_marks SET mark_gen = gen, digest = ?, files = ?, ignored = ?
      WHERE folder_id = ? AND gen = ?`,
  );
  return {
    /**
     * Before a scan walks: the folder's generation now (counting starts here for a folder never
     * scanned), and its mark when the mark still holds.
     */
    begin(folderId: number): { gen: number; mark: ScanMark | null } {
      ensure.run(folderId);
      const r = read.get(folderId);
      if (!r) return { gen: 0, mark: null };
      const holds = r.digest !== null && r.mark_gen === r.gen && r.files !== null && r.ignored !== null;
      return {
        gen: r.gen,
        mark: holds
          ? { markGen: r.mark_gen!, digest: r.digest!, files: r.files!, ignored: r.ignored! }
          : null,
      };
    },
    /**
     * After a whole scan: kept only when no counted change happened since `gen` was read at its start
     * (its own writes included), i.e. the rows and the disk agreed. Returns whether it was kept.
     */
    save(folderId: number, gen: number, mark: Omit<ScanMark, 'markGen'>): boolean {
      return write.run(mark.digest, mark.files, mark.ignored, folderId, gen).changes === 1;
    },
  };
}

export type ScanMarksStore = ReturnType<typeof scanMarksStore>;
