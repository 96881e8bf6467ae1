import type { Db } from '../../../shared-node/sqlite';
import { statements } from '../../../shared-node/statements';
import { MIRROR_DELETED } from '../reason-codes';

/** A row this install made live: its local name and the remote copy it points at. */
export interface LiveFile {
  id: number;
  folderId: number;
  name: string;
  remoteId: number;
  remoteUrl: string;
}

/** A row whose remote copy the engine deletes (DELETING) or deleted after a local delete in a mirror folder. */
export interface MirrorDelete {
  id: number;
  folderId: number;
  name: string;
  remoteUrl: string;
}

/**
 * The engine's rows as the rest of the app reads them (the link check, the dry run's rent shares, the
 * daily digest, the Files view's delete): one owner of these queries beside the engine's own store, so
 * no app module reads `sync_files` with its own SQL, and a mirror delete is known by its code.
 */
export function syncedFiles(db: Db) {
  const prep = statements(db);
  return {
    /** Every LIVE row with its remote copy (same local path, newest remote id). */
    liveFiles(): LiveFile[] {
      return prep<[], LiveFile>(
        `SELECT id, folder_id AS folderId, name, remote_id AS remoteId, remote_url AS remoteUrl FROM sync_files
          WHERE state = 'LIVE' AND remote_id IS NOT NULL AND remote_url IS NOT NULL`,
      ).all();
    },
    /** The LIVE rows pointing at any of these remote ids (a delete from the Files view), by remote id. */
    liveOn(remoteIds: readonly number[]): LiveFile[] {
      if (remoteIds.length === 0) return [];
      const out: LiveFile[] = [];
      const q = prep<[string], LiveFile>(
        `SELECT id, folder_id AS folderId, name, remote_id AS remoteId, remote_url AS remoteUrl FROM sync_files
          WHERE state = 'LIVE' AND remote_id IN (SELECT value FROM json_each(?))`,
      );
      // In slices: a selection may be 100,000 ids.
      for (let i = 0; i < remoteIds.length; i += 5_000)
        out.push(...q.all(JSON.stringify(remoteIds.slice(i, i + 5_000))));
      return out;
    },
    /** Bytes live on the service per folder (what each folder's share of the rent is computed from). */
    liveBytesByFolder(): { folderId: number; bytes: number }[] {
      return prep<[], { folderId: number; bytes: number }>(
        `SELECT folder_id AS folderId, COALESCE(SUM(remote_size), 0) AS bytes FROM sync_files
          WHERE state = 'LIVE' GROUP BY folder_id`,
      ).all();
    },
    /** Rows that went live in [fromMs, toMs) of the machine's clock, and their bytes. */
    uploadedBetween(fromMs: number, toMs: number): { count: number; bytes: number } {
      const r = prep<[number, number], { count: number; bytes: number | null }>(
        `SELECT COUNT(*) AS count, SUM(size) AS bytes FROM sync_files
          WHERE state = 'LIVE' AND updated_at >= ? AND updated_at < ?`,
      ).get(fromMs, toMs);
      return { count: r?.count ?? 0, bytes: r?.bytes ?? 0 };
    },
    /** Mirror deletes under way (DELETING) or done (DELETED, MIRROR-DELETED), with the URL that dies. */
    mirrorDeletes(): MirrorDelete[] {
      return prep<[string], MirrorDelete>(
        `SELECT id, folder_id AS folderId, name, remote_url AS remoteUrl FROM sync_files
          WHERE remote_url IS NOT NULL AND (state = 'DELETING' OR (state = 'DELETED' AND reason_code = ?))`,
      ).all(MIRROR_DELETED);
    },
    /** The URLs of remote copies deleted after a local delete in a mirror folder: known gone. */
    mirrorDeletedUrls(): Set<string> {
      return new Set(this.mirrorDeletes().map((r) => r.remoteUrl));
    },
  };
}
export type SyncedFiles = ReturnType<typeof syncedFiles>;
