import { z } from 'zod';
import { command, Empty } from './define';
import { BucketSchema } from './files';

/**
 * The remote index as the UI and the CLI ask it (src-main/core/remote-index, docs/remote-index.md):
 * every live file of the account in a local table, so search, filters, sorting and scrolling over
 * 100,000 files cost no request. The Files view's commands are at the end (`remoteIndexCommands`).
 */
export const INDEX_SORTS = ['date', 'name', 'size', 'bucket'] as const;
export type IndexSort = (typeof INDEX_SORTS)[number];

const IST_DAY = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date is YYYY-MM-DD (IST)');

export const IndexFilterSchema = z
  .object({
    /** A part of the name, accents and case not counting (search-fold.ts). */
    search: z.string().max(255).optional(),
    bucket: BucketSchema.optional(),
    /** Extensions without the dot, any case; a file matches one of them. */
    extensions: z
      .array(
        z
          .string()
          .trim()
          .regex(/^\.?[A-Za-z0-9]{1,10}$/, 'an extension is 1 to 10 letters or digits'),
      )
      .max(50)
      .optional(),
    /** A media type or its first part: `image`, `image/`, `application/pdf`. */
    type: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9.+-]+(\/[A-Za-z0-9.+-]*)?$/, 'a type is like image, image/ or application/pdf')
      .max(100)
      .optional(),
    minBytes: z.number().int().nonnegative().optional(),
    maxBytes: z.number().int().nonnegative().optional(),
    /** Created on or after this IST day. */
    from: IST_DAY.optional(),
    /** Created on or before this IST day. */
    to: IST_DAY.optional(),
  })
  .strict();
export type IndexFilter = z.input<typeof IndexFilterSchema>;

export const IndexQuerySchema = IndexFilterSchema.extend({
  sort: z.enum(INDEX_SORTS).default('date'),
  /** Default: newest first for date, largest first for size, A to Z for name and bucket. */
  order: z.enum(['asc', 'desc']).optional(),
  limit: z.number().int().min(1).max(1000).default(100),
  /** The `next` of the previous page (keyset: stable while files come and go). */
  after: z.string().max(1000).optional(),
  /** Or a plain offset (a scroll bar's jump); ignored when `after` is given. */
  offset: z.number().int().nonnegative().optional(),
}).strict();
export type IndexQuery = z.input<typeof IndexQuerySchema>;

export const IndexedFileSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  bucket: z.string(),
  url: z.string(),
  size: z.number().int(),
  md5: z.string(),
  mime: z.string(),
  extension: z.string(),
  /** As the service says: `YYYY-MM-DD HH:MM`, IST. */
  createdAt: z.string(),
});
export type IndexedFile = z.infer<typeof IndexedFileSchema>;

export const IndexPageSchema = z.object({
  files: z.array(IndexedFileSchema),
  /** Pass as `after` for the next page; null at the end. */
  next: z.string().nullable(),
});
export type IndexPage = z.infer<typeof IndexPageSchema>;

/** What a filter matches: the confirmation of a bulk action names both. */
export const IndexSummarySchema = z.object({ count: z.number().int(), bytes: z.number().int() });
export type IndexSummary = z.infer<typeof IndexSummarySchema>;

export const IndexStatusSchema = z.object({
  /** Files in the index. */
  count: z.number().int(),
  /** True once a listing pass reached the oldest file: the index holds every file listed. */
  complete: z.boolean(),
  refreshedAt: z.number().nullable(),
  /** The walk that finds files deleted elsewhere: under way (how far), and when it last finished. */
  walk: z.object({
    running: z.boolean(),
    pagesDone: z.number().int().nullable(),
    finishedAt: z.number().nullable(),
  }),
});
export type IndexStatus = z.infer<typeof IndexStatusSchema>;

/**
 * What a bulk action applies to: the rows a person picked, or everything a filter matches (all
 * 100,000, not only the rows loaded), less the rows unticked after "select all".
 */
const PickedIds = z.object({ ids: z.array(z.number().int().positive()).min(1).max(200_000) });
const Matching = z.object({
  filter: IndexFilterSchema,
  except: z.array(z.number().int().positive()).max(200_000).default([]),
});
export const SelectionSchema = z.union([PickedIds.strict(), Matching.strict()]);
export type Selection = z.input<typeof SelectionSchema>;

/**
 * What a delete does to the files of the selection that a watched folder synced: `stop-syncing` (the
 * rows leave the sync, the local files are kept and never sent again, the folder lists them as removed
 * from the CDN by you) or `send-again` (the folder uploads them again, under new URLs). Required when
 * the selection holds such files (`FOLDER-FILES-CHOICE` otherwise): a delete never leaves a folder
 * saying Live over a dead link.
 */
export const FOLDER_FILES_CHOICES = ['stop-syncing', 'send-again'] as const;
export type FolderFilesChoice = (typeof FOLDER_FILES_CHOICES)[number];
const Choice = { folderFiles: z.enum(FOLDER_FILES_CHOICES).optional() };
export const BulkDeleteStartSchema = z.union([
  PickedIds.extend(Choice).strict(),
  Matching.extend(Choice).strict(),
]);
export type BulkDeleteStart = z.input<typeof BulkDeleteStartSchema>;

/** A watched folder holding files of a selection: which folder, how many, a few of their names. */
export const SelectionFolderSchema = z.object({
  folderId: z.number().int(),
  path: z.string(),
  mode: z.enum(['upload-only', 'mirror']),
  count: z.number().int(),
  names: z.array(z.string()),
});
export type SelectionFolder = z.infer<typeof SelectionFolderSchema>;

/** A knowledge entry a delete would break, and the URLs in it that would stop working. */
export const BrokenEntrySchema = z.object({
  entryId: z.number().int(),
  botId: z.number().int(),
  title: z.string(),
  urls: z.array(z.string()),
});
export type BrokenEntry = z.infer<typeof BrokenEntrySchema>;

/**
 * A bulk delete, kept in SQLite so that a restart goes on with it. `done` counts files the service
 * no longer has (a 410 GONE is done too); `failed` the ones it refused, with the last refusal.
 */
export const BulkDeleteJobSchema = z.object({
  id: z.number().int(),
  state: z.enum(['running', 'finished', 'cancelled', 'stopped']),
  total: z.number().int(),
  bytes: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  lastError: z.object({ code: z.string(), message: z.string() }).nullable(),
  startedAt: z.number(),
  finishedAt: z.number().nullable(),
});
export type BulkDeleteJob = z.infer<typeof BulkDeleteJobSchema>;

export const EXPORT_FORMATS = ['csv', 'json', 'urls'] as const;

export const remoteIndexCommands = {
  /** A page of the index: no request. */
  'files.index.query': command(IndexQuerySchema, IndexPageSchema),
  /** Count and bytes of a filter, and how complete the index is. */
  'files.index.summary': command(IndexFilterSchema, IndexSummarySchema.extend({ status: IndexStatusSchema })),
  'files.index.buckets': command(Empty, z.object({ buckets: z.array(z.string()) })),
  /** Reads the listing's new pages now (user lane): one request when nothing changed. */
  'files.index.refresh': command(
    Empty,
    z.object({ requests: z.number().int(), added: z.number().int(), removed: z.number().int() }),
  ),
  /** Count and bytes of a selection (a bulk action's confirmation). */
  'files.selection.summary': command(SelectionSchema, IndexSummarySchema),
  /** The knowledge entries that cite a file of the selection: a delete would break them. */
  'files.linksBrokenBy': command(SelectionSchema, z.object({ entries: z.array(BrokenEntrySchema) })),
  /** The watched folders that synced files of the selection (the delete dialog names them). */
  'files.selection.folders': command(SelectionSchema, z.object({ folders: z.array(SelectionFolderSchema) })),
  /** Starts deleting a selection on the service (user lane); one job at a time. */
  'files.bulkDelete.start': command(BulkDeleteStartSchema, BulkDeleteJobSchema),
  /** The current or last bulk delete; null when there never was one. */
  'files.bulkDelete.progress': command(Empty, BulkDeleteJobSchema.nullable()),
  'files.bulkDelete.cancel': command(Empty, BulkDeleteJobSchema.nullable()),
  /** A selection as CSV, JSON, or its URLs one a line, to save or copy. */
  'files.export': command(
    z.object({ selection: SelectionSchema, format: z.enum(EXPORT_FORMATS) }).strict(),
    z.object({ fileName: z.string(), mime: z.string(), text: z.string(), count: z.number().int() }),
  ),
} as const;

export const remoteIndexEvents = {
  /** The index changed (a refresh, a walked page, a delete): the Files view re-reads its rows. */
  'files.index.changed': IndexStatusSchema,
  'files.bulkDelete.changed': BulkDeleteJobSchema,
} as const;
