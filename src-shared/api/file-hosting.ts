import { z } from 'zod';

/** Schemas of the file-hosting API (`../shared/spec/file-hosting-api.md`), used where replies enter the core. */

export const FILE_API_BASE_PATH = '/api/assets/v1';

export const FileStatusSchema = z.enum(['ACTIVE', 'DELETED']);

export const RemoteFileSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  bucket: z.string(),
  name: z.string(),
  extension: z.string(),
  mime: z.string(),
  size_bytes: z.number().int(),
  hash: z.string(),
  status: FileStatusSchema,
  created_at: z.string(),
});
export type RemoteFile = z.infer<typeof RemoteFileSchema>;

export const AccountSchema = z.object({
  client: z.object({
    id: z.number().int(),
    name: z.string(),
    status: z.string(),
    default_bucket: z.string(),
  }),
  usage: z.object({
    files_count: z.number().int(),
    bytes_used: z.number().int(),
    daily_rent_paise: z.number().int(),
    monthly_estimate_paise: z.number().int(),
  }),
  wallet: z.object({
    balance_paise: z.number().int(),
    min_balance_to_upload_paise: z.number().int(),
  }),
  arrears: z.object({
    paise: z.number().int(),
    since: z.string().nullable(),
    deadline: z.string().nullable(),
  }),
  pricing: z.object({
    per_gb_month_paise: z.number().int(),
    max_file_bytes: z.number().int(),
    allowed_extensions: z.array(z.string()),
    grace_days: z.number().int(),
  }),
});
export type Account = z.infer<typeof AccountSchema>;

export const UsageSnapshotSchema = z.object({
  usage_date: z.string(),
  bytes_used: z.number().int(),
  files_count: z.number().int(),
  rent_paise: z.number().int(),
  outcome: z.string(),
});
export type UsageSnapshot = z.infer<typeof UsageSnapshotSchema>;

export const ListMetaSchema = z.object({
  page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
  last_page: z.number().int(),
});
export type ListMeta = z.infer<typeof ListMetaSchema>;

export const UsageMetaSchema = z.object({ days: z.number().int(), count: z.number().int() });

export const FailureEnvelopeSchema = z.object({
  data: z.null(),
  errors: z.array(z.string()),
  code: z.string(),
});
export type FailureEnvelope = z.infer<typeof FailureEnvelopeSchema>;

export const dataEnvelope = <T extends z.ZodType>(data: T) => z.object({ data });
export const listEnvelope = <T extends z.ZodType, M extends z.ZodType>(item: T, meta: M) =>
  z.object({ data: z.array(item), meta });

export const DeleteReplySchema = z.object({ id: z.number().int(), status: FileStatusSchema });

/** Every machine code of the error table (section 7). */
export const FILE_API_ERROR_CODES = [
  'UNAUTHENTICATED',
  'CLIENT-CLOSED',
  'UPLOADS-PAUSED',
  'LOW-BALANCE',
  'VALIDATION',
  'HASH-MISMATCH',
  'SOURCE-UNREACHABLE',
  'BUCKET-INVALID',
  'FILE-TOO-LARGE',
  'EXTENSION-NOT-ALLOWED',
  'STORAGE-FAILED',
  'GONE',
  'RATE-LIMITED',
] as const;
export type FileApiErrorCode = (typeof FILE_API_ERROR_CODES)[number];

export const FILE_API_ERROR_STATUS: Record<FileApiErrorCode, number> = {
  UNAUTHENTICATED: 401,
  'CLIENT-CLOSED': 403,
  'UPLOADS-PAUSED': 402,
  'LOW-BALANCE': 402,
  VALIDATION: 422,
  'HASH-MISMATCH': 422,
  'SOURCE-UNREACHABLE': 422,
  'BUCKET-INVALID': 422,
  'FILE-TOO-LARGE': 413,
  'EXTENSION-NOT-ALLOWED': 415,
  'STORAGE-FAILED': 502,
  GONE: 410,
  'RATE-LIMITED': 429,
};
