import type { KnowledgeFacts } from '../../../src-shared/domain/status-model';
import type { Db } from '../../shared-node/sqlite';
import { createEntryStore } from '../kb/entries';
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

/**
 * The knowledge outbox as the status model reads it, from the local state alone: each bot's edits not
 * yet accepted, and its last round's error as stored (KB-NETWORK: offline; KB-RATE-LIMITED: a 429 until
 * the next round). `assets-sync status` says the same word as the app over files and knowledge.
 */
export function readKnowledgeFacts(db: Db): KnowledgeFacts[] {
  const entries = createEntryStore(db);
  const bots = db
    .prepare('SELECT local_id, last_error_code, next_sync_at FROM kb_bots ORDER BY local_id')
    .all() as {
    local_id: number;
    last_error_code: string | null;
    next_sync_at: string | null;
  }[];
  return bots.map((b) => {
    const c = entries.counts(b.local_id);
    const next = b.next_sync_at ? Date.parse(b.next_sync_at) : null;
    return {
      pending: c.pending,
      conflict: c.conflict,
      error: c.error,
      state: b.last_error_code === 'KB-NETWORK' ? 'offline' : b.last_error_code ? 'error' : 'idle',
      rateLimitedUntil: b.last_error_code === 'KB-RATE-LIMITED' ? (next ?? 0) : null,
      nextAttemptAt: next,
    };
  });
}
