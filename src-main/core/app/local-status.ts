import type { Db } from '../../shared-node/sqlite';
import { type ActivityEntry, activityStore } from '../sync/state/activity-store';
import { filesStore } from '../sync/state/files-store';
import { foldersStore } from '../sync/state/folders-store';
import type { FolderTally } from '../sync/state/transitions';
import type { FileRow, Folder, FolderCounts } from '../sync/types';

export interface LocalFolderStatus {
  folder: Folder;
  counts: FolderCounts;
  /** Live, pending, failed for good, skipped: as the engine and the app count them (state/transitions.ts). */
  tally: FolderTally;
  /** Files with work ahead (the engine's own definition): tally.pending. */
  pending: number;
  /** The first failed files, with their reason and next retry. */
  failed: FileRow[];
}

/**
 * What the synced folders look like from the local state alone (no engine, no request): `assets-sync
 * status` reads this while an app or another `sync` may be running on the same database.
 */
export function readLocalSyncStatus(
  db: Db,
  o: { failedPerFolder?: number; activity?: number } = {},
): { folders: LocalFolderStatus[]; activity: ActivityEntry[] } {
  const files = filesStore(db);
  const folders = foldersStore(db)
    .list()
    .map((folder) => {
      const tally = files.tally(folder.id);
      return {
        folder,
        counts: files.counts(folder.id),
        tally,
        pending: tally.pending,
        failed: files.list({ folderId: folder.id, state: 'FAILED', limit: o.failedPerFolder ?? 50 }),
      };
    });
  return { folders, activity: activityStore(db).list({ limit: o.activity ?? 10 }) };
}
