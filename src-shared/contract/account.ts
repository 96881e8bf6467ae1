import { z } from 'zod';
import { AccountSchema, UsageSnapshotSchema } from '../api/file-hosting';
import { cached, command, Empty } from './define';

export const CachedAccountSchema = cached(AccountSchema.nullable());
export type CachedAccount = z.infer<typeof CachedAccountSchema>;

export const USAGE_RANGES = [7, 30, 90] as const;
export const CachedUsageSchema = cached(z.array(UsageSnapshotSchema));
export type CachedUsage = z.infer<typeof CachedUsageSchema>;

/**
 * The service's clock as seen from this machine: service time = machine time + offsetMs. Deadlines
 * and days come from the service, so countdowns are computed against its clock, not the machine's.
 */
export const ServiceClockSchema = z.object({
  offsetMs: z.number(),
  /** `date-header`: the HTTP Date of the service's replies; `sandbox-clock`: the sandbox's admin clock
   * (it can be advanced, its Date header cannot); `machine`: nothing measured yet. */
  source: z.enum(['machine', 'date-header', 'sandbox-clock']),
  /** Epoch ms (machine) of the measurement. */
  measuredAt: z.number().nullable(),
});
export type ServiceClock = z.infer<typeof ServiceClockSchema>;

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
  /** The offset measured last (the sandbox's admin clock is read again first). */
  'clock.get': command(Empty, ServiceClockSchema),
} as const;

export const accountEvents = {
  'account.changed': CachedAccountSchema,
  /** The measured offset moved by a second or more (a sandbox clock advanced, a new connection). */
  'clock.changed': ServiceClockSchema,
} as const;
