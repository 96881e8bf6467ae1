import { z } from 'zod';
import { SYNC_STATES, type SyncState } from '../domain/sync-state';
import { AppErrorSchema, command, Done, Empty } from './define';
import { BucketSchema } from './files';

export const FolderModeSchema = z.enum(['upload-only', 'mirror']);
export type FolderMode = z.infer<typeof FolderModeSchema>;

export const FILE_STATES = [
  'NEW',
  'HASHING',
  'QUEUED',
  'UPLOADING',
  'LIVE',
  'SKIPPED',
  'FAILED',
  'PAUSED',
  'DELETING',
  'DELETED',
] as const;
export const FileStateSchema = z.enum(FILE_STATES);

export const FolderCountsSchema = z.object({
  live: z.number().int(),
  pending: z.number().int(),
  failed: z.number().int(),
  /** Skipped for a reason of the file (extension, size, link...), not counting the ones below. */
  skipped: z.number().int(),
  /** Deleted from the CDN in the Files view with "stop syncing them": kept locally, not sent. */
  removedByYou: z.number().int(),
  /** Of pending: files that failed and wait for their automatic retry (state/transitions.ts). */
  retrying: z.number().int().default(0),
  /** Of pending: files a worker holds now (hashing, uploading). */
  active: z.number().int().default(0),
});

export const FolderViewSchema = z.object({
  id: z.number().int(),
  path: z.string(),
  bucket: z.string(),
  mode: FolderModeSchema,
  paused: z.boolean(),
  /** Whether links whose real path leaves the folder are followed (off by default: they could publish any file). */
  followOutsideLinks: z.boolean(),
  counts: FolderCountsSchema,
  /** A watcher problem in words (a vanished folder, a full inotify table), else null. */
  problem: z.string().nullable(),
  /** The folder's runner has nothing left to do: no change waiting to be read, no scan, no pending file. */
  inSync: z.boolean().default(true),
});
export type FolderView = z.infer<typeof FolderViewSchema>;

export const SyncStateSchema = z.enum(SYNC_STATES);
export type { SyncState };

const Until = z.object({ until: z.number().nullable() });
/**
 * The holds in force, as facts for the one status model (src-shared/domain/status-model.ts `Holds`):
 * what keeps files from being sent, each surface's words are derived from these.
 */
export const HoldsSchema = z.object({
  stopped: AppErrorSchema.pick({ code: true, message: true }).nullable(),
  account: AppErrorSchema.pick({ code: true, message: true }).nullable(),
  userPaused: z.boolean(),
  schedule: Until.nullable(),
  offline: z.object({ nextTryAt: z.number().nullable() }).nullable(),
  rateLimited: Until.nullable(),
  officeWait: Until.nullable(),
});

export const SyncOverviewSchema = z.object({
  state: SyncStateSchema,
  /** Why uploads are held (402, 401, 403, or the user's pause), with what to do. */
  held: AppErrorSchema.nullable(),
  /** The holds in force one by one (the status model's facts); `held` is the first of them. */
  holds: HoldsSchema.optional(),
  folders: z.array(FolderViewSchema),
  budget: z.object({ perMinute: z.number().int(), usedLastMinute: z.number().int() }),
  concurrency: z.number().int(),
  /**
   * The service gives no answer (connection refused, DNS, a timeout; an HTTP answer of any status is not
   * offline): since when (epoch ms), why, how many files wait, and when it is asked next.
   */
  offline: z
    .object({ since: z.number(), nextTryAt: z.number(), waiting: z.number().int(), message: z.string() })
    .nullable()
    .default(null),
  /** Paused by the account (402): when /me is asked next (epoch ms); `sync.checkNow` asks at once. */
  nextCheckAt: z.number().nullable().default(null),
  /** The upload limit in force and until when: "Limited to 512 KiB/s until 19:00" (core/app/bandwidth-text.ts). */
  bandwidth: z
    .object({
      kind: z.enum(['off', 'pause', 'rate']),
      bytesPerSecond: z.number().nullable(),
      until: z.number().nullable(),
      source: z.enum(['limit', 'schedule']),
      text: z.string(),
      /** The machine's offset from UTC ("UTC", "UTC-05:00"): what "this computer's time" means for the schedule. */
      localZone: z.string().optional(),
    })
    .nullable()
    .optional(),
  /** Time left for what is queued, and what bounds it: the request budget or the bytes. */
  etaBound: z.enum(['requests', 'bytes', 'pace', 'retry', 'schedule']).nullable().optional(),
  etaSeconds: z.number().nullable().optional(),
  /**
   * When the core made that estimate (epoch ms, this machine's clock): the header counts down from it while
   * nothing new is said (a pause of the schedule, a 429's wait: no progress meanwhile).
   */
  etaAt: z.number().nullable().optional(),
});
export type SyncOverview = z.infer<typeof SyncOverviewSchema>;

export const QueueItemSchema = z.object({
  fileId: z.number().int(),
  folderId: z.number().int().nullable(),
  name: z.string(),
  sizeBytes: z.number().int(),
  state: FileStateSchema,
  sentBytes: z.number().int(),
  bytesPerSecond: z.number().nullable(),
  etaSeconds: z.number().nullable(),
});
export type QueueItem = z.infer<typeof QueueItemSchema>;

export const ProblemItemSchema = z.object({
  fileId: z.number().int(),
  folderId: z.number().int().nullable(),
  name: z.string(),
  state: z.enum(['FAILED', 'SKIPPED']),
  code: z.string(),
  reason: z.string(),
  /** Epoch ms of the next automatic retry, when there is one. */
  nextRetryAt: z.number().nullable(),
});
export type ProblemItem = z.infer<typeof ProblemItemSchema>;

/** A file waiting its turn, in the order it will go, with its lane (docs/sync-engine.md "Priority"). */
export const NextItemSchema = z.object({
  fileId: z.number().int(),
  name: z.string(),
  sizeBytes: z.number().int(),
  lane: z.enum(['now', 'live', 'backlog']),
});
export type NextItem = z.infer<typeof NextItemSchema>;

export const QueueSchema = z.object({
  active: z.array(QueueItemSchema),
  waiting: z.number().int(),
  /** The first waiting files in the order they will go: "Upload now", just added (newest first), the backlog. */
  next: z.array(NextItemSchema).optional(),
  problems: z.array(ProblemItemSchema),
  /**
   * All the files not uploaded (FAILED, retrying ones included, and SKIPPED): the whole count behind
   * `problems`, which holds the first 200 of each. A file waiting for its retry is pending in the
   * folders' tally, so their counts alone would say "0 files" over the rows listed.
   */
  problemsTotal: z.number().int().optional(),
});
export type Queue = z.infer<typeof QueueSchema>;

export const ActivityItemSchema = z.object({
  id: z.number().int(),
  at: z.number(),
  level: z.enum(['info', 'warn', 'error']),
  message: z.string(),
});
export type ActivityItem = z.infer<typeof ActivityItemSchema>;

export const AddFolderSchema = z.object({
  path: z.string().trim().min(1, 'Give the folder path'),
  bucket: BucketSchema,
  mode: FolderModeSchema.default('upload-only'),
  followOutsideLinks: z.boolean().default(false),
});

/** Copies of one file on the server (same bucket, name, size and md5): one is kept, the rest are extra. */
export const DuplicateGroupSchema = z.object({
  bucket: z.string(),
  name: z.string(),
  sizeBytes: z.number().int(),
  md5: z.string(),
  /** The copy kept: the one a local file points to, else the oldest. */
  keepId: z.number().int(),
  extraIds: z.array(z.number().int()),
});
export type DuplicateGroup = z.infer<typeof DuplicateGroupSchema>;

export const DuplicatesSchema = z.object({
  groups: z.array(DuplicateGroupSchema),
  /** Epoch ms of the scan the groups come from. */
  checkedAt: z.number(),
});
export type Duplicates = z.infer<typeof DuplicatesSchema>;

export const syncCommands = {
  'sync.overview': command(Empty, SyncOverviewSchema),
  'sync.folders.add': command(AddFolderSchema, FolderViewSchema),
  'sync.folders.update': command(
    z.object({
      id: z.number().int(),
      bucket: BucketSchema.optional(),
      mode: FolderModeSchema.optional(),
      followOutsideLinks: z.boolean().optional(),
    }),
    FolderViewSchema,
  ),
  'sync.folders.remove': command(z.object({ id: z.number().int() }), Done),
  /** Without a folder id: every folder. */
  'sync.pause': command(z.object({ folderId: z.number().int().optional() }), Done),
  'sync.resume': command(z.object({ folderId: z.number().int().optional() }), Done),
  /** Asks the service now: whether it answers again (offline), whether the account allows uploads (paused). */
  'sync.checkNow': command(Empty, Done),
  /** "Upload now": a waiting file goes to the front of the queue. */
  'sync.uploadNow': command(z.object({ fileId: z.number().int() }), Done),
  /** Without a file id: every failed file. */
  'sync.retry': command(z.object({ fileId: z.number().int().optional() }), Done),
  'sync.queue': command(z.object({ folderId: z.number().int().optional() }), QueueSchema),
  /** Lists the buckets of the synced folders (one request per 100 files) and groups the copies. */
  'sync.duplicates.find': command(Empty, DuplicatesSchema),
  /**
   * Deletes the extra copies of the groups found by the last scan, named by the copy they keep (the
   * core never deletes ids the page sends). Deletions go through the engine's trash: retried, never lost.
   */
  'sync.duplicates.remove': command(
    z.object({ keepIds: z.array(z.number().int()).min(1, 'Name at least one group to clean up') }),
    z.object({ queued: z.number().int() }),
  ),
  'activity.list': command(
    z.object({ limit: z.number().int().min(1).max(1000).default(200) }),
    z.array(ActivityItemSchema),
  ),
} as const;

export const syncEvents = {
  'sync.changed': SyncOverviewSchema,
  'sync.queue': QueueSchema,
  'activity.added': ActivityItemSchema,
  /**
   * A moment worth a desktop notification: a folder in sync, uploads paused for money, syncing stopped,
   * offline with files waiting, files that need attention, the leads' link down (each in the status
   * model's words, src-shared/domain/status-notices.ts), or the runway.
   */
  notify: z.object({
    kind: z.enum(['in-sync', 'paused-money', 'error', 'offline', 'attention', 'leads', 'runway']),
    title: z.string(),
    body: z.string(),
  }),
} as const;
