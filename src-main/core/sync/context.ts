import type { Db } from '../../shared-node/sqlite';
import type { FileApiClient } from '../service/file-api-client';
import { type BackoffPolicy, SYNC_BACKOFF } from '../service/retry-policy';
import type { Clock, RateLimiter } from './engine/bandwidth';
import type { PartsEmitter } from './events';
import type { Hasher } from './hash/hasher';
import type { IgnoredRegistry } from './local/ignored-files';
import type { UploadRules } from './local/local-checks';
import type { AccountStore } from './state/account-store';
import type { ActivityStore } from './state/activity-store';
import type { FilePatch, FilesStore } from './state/files-store';
import type { FoldersStore } from './state/folders-store';
import type { JournalStore } from './state/journal-store';
import type { ScanMarksStore } from './state/scan-marks-store';
import type { TrashStore } from './state/trash-store';
import type { FileRow, FileState, Folder } from './types';

/** Tunables; the defaults suit a desktop, tests shorten the waits. */
export interface SyncOptions {
  /** Uploads at once (default 4); one slot is kept for small files. */
  concurrency: number;
  /** A file is taken once its size and mtime have not moved for this long (default 2 s). */
  stabilityMs: number;
  /** Files up to this size count as small and always have a free upload slot (default 8 MiB). */
  smallFileBytes: number;
  /** How often /me is asked while uploads are paused by the account, after 2 s, 4 s, 8 s (default 10 s). */
  pausePollMs: number;
  backoff: BackoffPolicy;
  hasherThreads: number;
  /** Watch folders for changes (false for a one-shot run). */
  watch: boolean;
  /** Delay before open journal entries are matched against a listing, so several settle in one listing. */
  reconcileDelayMs: number;
  /** How often a polled folder (network share, full inotify table) is looked at (default 2 s). */
  pollIntervalMs: number;
  /** Content dedupe (off by default): link a new file to a live copy of its bytes in the bucket (dedupe/). */
  contentDedupe: () => boolean;
  /**
   * Runs only the folders it accepts (null: all). `sync DIR --once` passes DIR's: the app's other
   * folders are neither scanned, watched, hashed nor sent, and do not hold up waitUntilSettled.
   */
  onlyFolder: ((folder: Folder) => boolean) | null;
  /**
   * At start, each run folder's LIVE rows are checked against its bucket's listing and a copy gone
   * from the service is sent again (upload/check-bucket.ts): the CLI's `sync`, which has no remote-index
   * keeper beside it. The app leaves it off: its keeper tells the engine (engine.remoteGone).
   */
  checkBucketAtStart: boolean;
}

export const DEFAULT_OPTIONS: SyncOptions = {
  concurrency: 4,
  stabilityMs: 2_000,
  smallFileBytes: 8 * 1024 * 1024,
  pausePollMs: 10_000,
  backoff: SYNC_BACKOFF,
  hasherThreads: 1,
  watch: true,
  reconcileDelayMs: 1_000,
  pollIntervalMs: 2_000,
  contentDedupe: () => false,
  onlyFolder: null,
  checkBucketAtStart: false,
};

/** What the engine's parts share. Built once by engine.ts. */
export interface SyncContext {
  db: Db;
  client: FileApiClient;
  files: FilesStore;
  folders: FoldersStore;
  journal: JournalStore;
  trash: TrashStore;
  activity: ActivityStore;
  /** The account the rows' remote ids belong to. */
  accounts: AccountStore;
  hasher: Hasher;
  /** What the last consistent scan of each folder saw, to stop a scan that would change nothing. */
  marks: ScanMarksStore;
  /** What the last scan of each folder ignored (bounded), for the Folders view. */
  ignored: IgnoredRegistry;
  /** The upload rate limit every upload's bytes wait for (engine/bandwidth.ts). */
  limiter: RateLimiter;
  /** Errors and account events; a row's `file` event goes out through transition / insertNew only. */
  events: PartsEmitter;
  options: SyncOptions;
  now(): number;
  /** The engine's clock: every room's timers (engine/timers.ts), the schedule, the rate limit, stop's grace. */
  clock: Clock;
  /** The last-resort log, for what cannot be written to the activity log (its database failed). */
  report(line: string): void;
  rules(): UploadRules;
  /** Changes a row's state (checked by the state machine, with the columns in patch) and tells the listeners; null when the row moved meanwhile. */
  transition(id: number, to: FileState, patch?: FilePatch, expect?: readonly FileState[]): FileRow | null;
  /** Records a path seen for the first time as a NEW row and tells the listeners. */
  insertNew(
    folderId: number,
    name: string,
    stat: { size: number; mtimeMs: number; inode: number },
    notBefore: number,
  ): FileRow;
  log(kind: string, message: string, ref?: { folderId?: number | null; fileId?: number | null }): void;
  folder(id: number): Folder | null;
  /** Asks the scheduler to look for work now. */
  wake(): void;
  /** A 402: pause every upload and poll /me until uploads are allowed again. */
  pauseForAccount(error: { code: string; message: string }): void;
  /** Whether the engine stopped (or was stopped): loops check it before each request they send. */
  halted(): boolean;
  /** A 401 or 403 CLIENT-CLOSED: stop everything until the user acts. */
  stopFor(reaction: 'auth' | 'closed', error: { code: string; message: string }): void;
  /** Asks for open journal entries to be matched against the service's listing soon. */
  requestReconcile(): void;
}
