import { z } from 'zod';
import { command } from './define';

/**
 * Files a folder's ignore rules leave out, as the last whole scan found them: the count of all, and
 * the first examples with the rule that ignored each (docs/desktop-app.md, "Ignored files").
 */
export const IgnoredFilesSchema = z.object({
  count: z.number().int(),
  examples: z.array(z.object({ path: z.string(), isDirectory: z.boolean(), rule: z.string() })),
  /** Epoch ms of that scan; null before the first one finished. */
  scannedAt: z.number().nullable(),
});
export type IgnoredFiles = z.infer<typeof IgnoredFilesSchema>;

export const ignoredCommands = {
  'sync.folders.ignored': command(z.object({ id: z.number().int() }), IgnoredFilesSchema),
};
