import { z } from 'zod';
import { AccountSchema, UsageSnapshotSchema } from '../api/file-hosting';
import { cached, command } from './define';

export const CachedAccountSchema = cached(AccountSchema.nullable());
export type CachedAccount = z.infer<typeof CachedAccountSchema>;

export const USAGE_RANGES = [7, 30, 90] as const;
export const CachedUsageSchema = cached(z.array(UsageSnapshotSchema));
export type CachedUsage = z.infer<typeof CachedUsageSchema>;

export const accountCommands = {
  /** The account from /me; `refresh: false` answers from the stored copy without a request. */
  'account.get': command(z.object({ refresh: z.boolean().default(true) }), CachedAccountSchema),
  'usage.get': command(
    z.object({
      days: z.union([z.literal(7), z.literal(30), z.literal(90)]),
      refresh: z.boolean().default(true),
    }),
    CachedUsageSchema,
  ),
} as const;

export const accountEvents = {
  'account.changed': CachedAccountSchema,
} as const;
