import type { Db } from '../../../shared-node/sqlite';
import { statements } from '../../../shared-node/statements';

/** The activity log the user reads: what happened, in words, newest first. No secrets are ever passed in. */
export interface ActivityEntry {
  id: number;
  at: number;
  folderId: number | null;
  fileId: number | null;
  kind: string;
  message: string;
}

export function activityStore(db: Db, now: () => number = Date.now) {
  const prep = statements(db);
  return {
    add(
      kind: string,
      message: string,
      ref: { folderId?: number | null; fileId?: number | null } = {},
    ): ActivityEntry {
      const at = now();
      const id = Number(
        prep('INSERT INTO sync_activity (at, folder_id, file_id, kind, message) VALUES (?, ?, ?, ?, ?)').run(
          at,
          ref.folderId ?? null,
          ref.fileId ?? null,
          kind,
          message,
        ).lastInsertRowid,
      );
      return { id, at, folderId: ref.folderId ?? null, fileId: ref.fileId ?? null, kind, message };
    },
    /** Whether an entry of `kind` about this file already names `text` (a warning said once). */
    mentions(kind: string, fileId: number, text: string): boolean {
      return (
        prep<[string, number, string], { x: number }>(
          'SELECT 1 AS x FROM sync_activity WHERE kind = ? AND file_id = ? AND instr(message, ?) > 0 LIMIT 1',
        ).get(kind, fileId, text) !== undefined
      );
    },
    /** A page of entries older than `beforeId` (all when omitted), newest first. */
    list(q: { beforeId?: number; limit?: number; folderId?: number } = {}): ActivityEntry[] {
      return prep<[number, number | null, number | null, number], ActivityEntry>(
        `SELECT id, at, folder_id AS folderId, file_id AS fileId, kind, message FROM sync_activity
           WHERE id < ? AND (? IS NULL OR folder_id = ?) ORDER BY id DESC LIMIT ?`,
      ).all(
        q.beforeId ?? Number.MAX_SAFE_INTEGER,
        q.folderId ?? null,
        q.folderId ?? null,
        Math.min(q.limit ?? 100, 1000),
      );
    },
  };
}

export type ActivityStore = ReturnType<typeof activityStore>;
