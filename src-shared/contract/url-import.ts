import { z } from 'zod';
import { AppErrorSchema, command } from './define';

/**
 * Import from URLs (docs/remote-index.md "Import from URLs"): the Import dialog hands the core a list
 * of `source_url[,bucket[,md5]]` lines, or old `cdn_id`s to check. The list is kept under a name in
 * the app's data folder with its results file next to it, so a second run of the same name skips
 * the lines that already succeeded.
 */
/** Under the headless shell's 1 MB WebSocket frame, with room for the rest of the message (about 11,000 lines). */
export const MAX_LIST_CHARS = 900_000;

const ListName = z
  .string()
  .trim()
  .min(1, 'give the list a name')
  .max(120, 'a list name is at most 120 characters');
const ListText = z
  .string()
  .max(MAX_LIST_CHARS, 'a list is at most 900,000 characters (about 11,000 lines); split a longer one');

export const ImportLineViewSchema = z.object({
  line: z.number().int(),
  sourceUrl: z.string(),
  bucket: z.string().nullable(),
  md5: z.string().nullable(),
  /** Why no request will be sent for it; null when it is fit to upload. */
  problem: AppErrorSchema.nullable(),
});
export type ImportLineView = z.infer<typeof ImportLineViewSchema>;

export const ImportResultViewSchema = z.object({
  line: z.number().int(),
  sourceUrl: z.string(),
  bucket: z.string().nullable(),
  md5: z.string().nullable(),
  status: z.enum(['OK', 'ERROR', 'SKIPPED']),
  id: z.number().int().nullable(),
  url: z.string().nullable(),
  code: z.string().nullable(),
  message: z.string().nullable(),
});
export type ImportResultView = z.infer<typeof ImportResultViewSchema>;

export const IdCheckViewSchema = z.object({
  line: z.number().int(),
  cdnId: z.string(),
  status: z.enum(['LIVE', 'GONE', 'ERROR']),
  url: z.string().nullable(),
  name: z.string().nullable(),
  code: z.string().nullable(),
  message: z.string().nullable(),
});
export type IdCheckView = z.infer<typeof IdCheckViewSchema>;

export const ImportRunSchema = z.object({
  lines: z.number().int(),
  uploaded: z.number().int(),
  /** Lines an earlier run of this list had already uploaded (no request now). */
  alreadyDone: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
  requests: z.number().int(),
  stoppedBy: AppErrorSchema.nullable(),
  results: z.array(ImportResultViewSchema),
  /** The results file as written (`line,source_url,...`), for the dialog's download. */
  csv: z.string(),
});
export type ImportRun = z.infer<typeof ImportRunSchema>;

export const IdCheckRunSchema = z.object({
  lines: z.number().int(),
  live: z.number().int(),
  gone: z.number().int(),
  errors: z.number().int(),
  requests: z.number().int(),
  results: z.array(IdCheckViewSchema),
  csv: z.string(),
});
export type IdCheckRun = z.infer<typeof IdCheckRunSchema>;

export const urlImportCommands = {
  /** Checks every line without a request (URL form, extension, bucket, md5). */
  'urlImport.check': command(
    z.object({ text: ListText }).strict(),
    z.object({ lines: z.array(ImportLineViewSchema) }),
  ),
  /** Uploads the fit lines within the request budget; a second run of the same name skips what succeeded. */
  'urlImport.run': command(z.object({ name: ListName, text: ListText }).strict(), ImportRunSchema),
  /** Old `cdn_id`s: which are live (GET /files/{id}) with their URL, which are GONE. */
  'urlImport.checkIds': command(z.object({ name: ListName, text: ListText }).strict(), IdCheckRunSchema),
} as const;

export const urlImportEvents = {
  /** One line done, of a run or a check under way. */
  'urlImport.progress': z.object({
    name: z.string(),
    mode: z.enum(['import', 'check-ids']),
    done: z.number().int(),
    total: z.number().int(),
  }),
} as const;
