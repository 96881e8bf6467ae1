import { z } from 'zod';
import { RemoteFileSchema } from '../api/file-hosting';
import { BUCKET_RULE_MESSAGE, isValidBucket } from '../domain/bucket';
import { command } from './define';

export const BucketSchema = z.string().trim().refine(isValidBucket, BUCKET_RULE_MESSAGE);

export const UploadFromUrlSchema = z.object({
  sourceUrl: z
    .string()
    .trim()
    .url('The source must be a full URL')
    .refine((u) => /^https?:\/\//i.test(u), 'The source URL must start with http:// or https://'),
  bucket: BucketSchema.optional(),
});

export const filesCommands = {
  'files.uploadFromUrl': command(UploadFromUrlSchema, RemoteFileSchema),
  /** Files dropped on the window (paths on this machine) go through the same queue as folders. */
  'files.uploadPaths': command(
    z.object({ paths: z.array(z.string().min(1)).min(1).max(1000), bucket: BucketSchema }),
    z.object({ queued: z.number().int() }),
  ),
} as const;
