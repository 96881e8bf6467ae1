import type { FileRow, FolderMode } from './types';

/** What a local delete does to a row that may have a remote copy. */
export interface LocalDeleteOutcome {
  /** DELETING: the remote copy is deleted next (the deleter); DELETED: nothing is sent. */
  to: 'DELETING' | 'DELETED';
  reason: string;
  /** Whether a replaced version still waiting for deletion (old_remote_id) goes to the trash. */
  trashOldVersion: boolean;
}

/** What a rename (a new path with the content of a path that is gone) does to the old name's row. */
export interface RenameOutcome {
  /** Whether the old name's remote copy is deleted once the new name is live. */
  deleteOldRemote: boolean;
  /** The reason the old name's row gets as it ends DELETED. */
  reason: string;
}

/**
 * What becomes of the copy on the service of a live file that turned into one the service refuses
 * (emptied, grown past the size limit, replaced by a link out of the folder): it is skipped now.
 */
export interface SkipOutcome {
  /** Whether that copy (the row's old_remote_id) goes to the trash now, or stays the version to replace. */
  trashOldVersion: boolean;
  /** Said after the skip's reason. */
  note: string;
}

/**
 * Everything a folder's mode decides, in one place: local/observe.ts and hash/prepare.ts ask here and
 * never test the mode themselves. Both modes upload new files and new versions, and both delete a
 * replaced version once the new one is live (upload/upload-one.ts); they differ in what a local
 * delete or rename does to the copy on the service.
 */
export interface FolderModePolicy {
  onLocalDelete(row: Pick<FileRow, 'remoteId' | 'oldRemoteId'>): LocalDeleteOutcome;
  onRename(from: Pick<FileRow, 'remoteId' | 'state'>, newName: string): RenameOutcome;
  onSkipped(row: Pick<FileRow, 'oldRemoteId'>): SkipOutcome;
}

const DELETED_LOCALLY = 'Deleted locally.';

/** The service follows the folder: a local delete deletes the remote copy. */
const mirror: FolderModePolicy = {
  onLocalDelete: (row) => ({
    to: row.remoteId !== null ? 'DELETING' : 'DELETED',
    reason: DELETED_LOCALLY,
    trashOldVersion: row.oldRemoteId !== null,
  }),
  onRename: (from, newName) => ({
    // A remote the deleter already removed (the delete event won the race) needs no second delete.
    deleteOldRemote: from.remoteId !== null && from.state !== 'DELETED',
    reason: `Renamed to ${newName}.`,
  }),
  // The bucket follows the folder: it holds no stale copy of a file that can no longer be sent.
  onSkipped: (row) => ({
    trashOldVersion: row.oldRemoteId !== null,
    note: row.oldRemoteId !== null ? ' Its earlier copy on the service is deleted (mirror folder).' : '',
  }),
};

/** The service keeps what was sent: a local delete or rename never deletes a remote copy. */
const uploadOnly: FolderModePolicy = {
  onLocalDelete: (row) => ({
    to: 'DELETED',
    reason:
      row.remoteId !== null
        ? `${DELETED_LOCALLY} The remote copy is kept (upload-only folder).`
        : DELETED_LOCALLY,
    trashOldVersion: false,
  }),
  onRename: (_from, newName) => ({
    deleteOldRemote: false,
    reason: `Renamed to ${newName}. The remote copy under the old name is kept (upload-only folder).`,
  }),
  // Kept, and still the version to replace: a later version that can be sent replaces it as usual.
  onSkipped: (row) => ({
    trashOldVersion: false,
    note: row.oldRemoteId !== null ? ' Its earlier copy on the service is kept (upload-only folder).' : '',
  }),
};

const POLICIES: Record<FolderMode, FolderModePolicy> = { mirror, 'upload-only': uploadOnly };

/** The mode of a folder added without one. */
export const DEFAULT_FOLDER_MODE: FolderMode = 'upload-only';

export function folderMode(mode: FolderMode): FolderModePolicy {
  return POLICIES[mode];
}
