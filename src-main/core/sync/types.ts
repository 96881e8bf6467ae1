/** The vocabulary of the sync engine, shared by its modules and by whoever wraps the engine (CLI, app). */
import { FILE_STATES, type FolderMode } from '../../../src-shared/contract/sync';

// The state list and the folder modes are the UI contract's (src-shared/contract/sync.ts): one source,
// so a state added there is a state the engine must handle (FolderCounts and the transition table are
// keyed by it and stop compiling until it does).
export { FILE_STATES };
export type FileState = (typeof FILE_STATES)[number];
export type { FolderMode };
export type WatcherKind = 'native' | 'polling';

export interface Folder {
  id: number;
  path: string;
  bucket: string;
  mode: FolderMode;
  paused: boolean;
  /** gitignore-style patterns, one per line, on top of the built-in rules. */
  ignore: string;
  watcher: WatcherKind;
  /**
   * Whether a link whose real path leaves the folder is followed (off by default): such a link could
   * publish any file the user can read, e.g. `ln -s ~/.ssh/id_ed25519 photos/p.jpg`.
   */
  followOutsideLinks: boolean;
  /** Set when the folder itself is missing or unreadable (renamed, unmounted); null when fine. */
  problem: string | null;
}

export interface FileRow {
  id: number;
  folderId: number;
  /** Path relative to the folder with '/' separators: the display name sent to the service. */
  name: string;
  state: FileState;
  size: number | null;
  mtimeMs: number | null;
  inode: number | null;
  md5: string | null;
  remoteId: number | null;
  remoteUrl: string | null;
  remoteMd5: string | null;
  remoteSize: number | null;
  /** The previous version's remote id, deleted once the new version is live. */
  oldRemoteId: number | null;
  reasonCode: string | null;
  reason: string | null;
  attempts: number;
  nextRetryAt: number | null;
  notBefore: number | null;
  renamedFrom: string | null;
  rehashed: boolean;
  updatedAt: number;
  /** Its place in the queue: 0 the scan's backlog, else the watcher's or "Upload now"'s (engine/priority.ts). */
  priority: number;
}

export type FolderCounts = Record<FileState, number>;
