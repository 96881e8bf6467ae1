import type { Db } from '../../../shared-node/sqlite';
import { statements } from '../../../shared-node/statements';

/** Remote files to delete that no local row stands for any more: replaced versions and removed duplicates. */
export interface TrashItem {
  remoteId: number;
  reason: string;
  attempts: number;
  nextRetryAt: number | null;
}

export function trashStore(db: Db, now: () => number = Date.now) {
  const prep = statements(db);
  return {
    add(remoteId: number, reason: string): void {
      prep('INSERT OR IGNORE INTO sync_trash (remote_id, reason, created_at) VALUES (?, ?, ?)').run(
        remoteId,
        reason,
        now(),
      );
    },
    due(limit: number): TrashItem[] {
      return prep<[number, number], TrashItem>(
        `SELECT remote_id AS remoteId, reason, attempts, next_retry_at AS nextRetryAt FROM sync_trash
           WHERE COALESCE(next_retry_at, 0) <= ? ORDER BY created_at LIMIT ?`,
      ).all(now(), limit);
    },
    done(remoteId: number): void {
      prep('DELETE FROM sync_trash WHERE remote_id = ?').run(remoteId);
    },
    later(remoteId: number, atMs: number): void {
      prep('UPDATE sync_trash SET attempts = attempts + 1, next_retry_at = ? WHERE remote_id = ?').run(
        atMs,
        remoteId,
      );
    },
    /** Empties the trash (its ids belong to an account the engine no longer talks to); returns how many. */
    clear(): number {
      return prep('DELETE FROM sync_trash').run().changes;
    },
    count(): number {
      return prep<[], { n: number }>('SELECT COUNT(*) AS n FROM sync_trash').get()?.n ?? 0;
    },
  };
}

export type TrashStore = ReturnType<typeof trashStore>;
