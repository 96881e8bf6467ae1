import { z } from 'zod';
import { RemoteFileSchema } from '../api/file-hosting';
import { BUCKET_RULE_MESSAGE, isValidBucket } from '../domain/bucket';
import { command } from './define';

export const BucketSchema = z.string().trim().refine(isValidBucket, BUCKET_RULE_MESSAGE);

/**
 * The Files view asks for windows of rows: the core answers from its local copy of the server's
 * listing (the API has no search), so search and scrolling cost no requests.
 */
export const FilesQuerySchema = z.object({
  bucket: BucketSchema.optional(),
  /** Case-insensitive part of the name. */
  search: z.string().max(200).optional(),
  minBytes: z.number().int().nonnegative().optional(),
  maxBytes: z.number().int().nonnegative().optional(),
  /** `YYYY-MM-DD`, IST, inclusive. */
  from: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  to: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  offset: z.number().int().nonnegative().default(0),
  limit: z.number().int().min(1).max(500).default(100),
});
export type FilesQuery = z.input<typeof FilesQuerySchema>;

/**
 * A row of the Files view. `listed`: as the service's listing gave it. Not listed: a file this app
 * made live after the last listing, shown from its sync row (the service's URL, id, size and md5)
 * until a listing says it; the service has not told its MIME type or upload date yet, so they are null.
 */
export const FileItemSchema = RemoteFileSchema.extend({
  mime: z.string().nullable(),
  created_at: z.string().nullable(),
  listed: z.boolean(),
});
export type FileItem = z.infer<typeof FileItemSchema>;

export const FilesPageSchema = z.object({
  rows: z.array(FileItemSchema),
  offset: z.number().int(),
  /** Rows matching the query. */
  total: z.number().int(),
  buckets: z.array(z.string()),
  fetchedAt: z.number().nullable(),
  offline: z.boolean(),
});
export type FilesPage = z.infer<typeof FilesPageSchema>;

export const UploadFromUrlSchema = z.object({
  sourceUrl: z
    .string()
    .trim()
    .url('The source must be a full URL')
    .refine((u) => /^https?:\/\//i.test(u), 'The source URL must start with http:// or https://'),
  bucket: BucketSchema.optional(),
});

export const filesCommands = {
  'files.query': command(FilesQuerySchema, FilesPageSchema),
  /** Re-reads the whole listing from the server into the local copy. */
  'files.refresh': command(z.object({}), z.object({ count: z.number().int(), fetchedAt: z.number() })),
  'files.delete': command(z.object({ id: z.number().int().positive() }), z.object({ id: z.number().int() })),
  'files.uploadFromUrl': command(UploadFromUrlSchema, RemoteFileSchema),
  /** Files dropped on the window (paths on this machine) go through the same queue as folders. */
  'files.uploadPaths': command(
    z.object({ paths: z.array(z.string().min(1)).min(1).max(1000), bucket: BucketSchema }),
    z.object({ queued: z.number().int() }),
  ),
} as const;

export const filesEvents = {
  /** The local copy of the listing changed (refresh, delete, a new upload went live). */
  'files.changed': z.object({ total: z.number().int(), fetchedAt: z.number().nullable() }),
} as const;
