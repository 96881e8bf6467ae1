import { z } from 'zod';
import { command, Empty } from './define';
import { BucketSchema } from './files';

/** `sync.preview`: a dry run of a folder (not yet watched, or watched); no upload request is spent. */
export const PreviewRequestSchema = z
  .object({
    path: z.string().trim().min(1, 'Give the folder path'),
    bucket: BucketSchema.optional(),
    mode: z.enum(['upload-only', 'mirror']).optional(),
    followOutsideLinks: z.boolean().optional(),
  })
  .strict();

const Count = z.object({ count: z.number().int(), bytes: z.number() });
const Example = z.object({ name: z.string(), message: z.string() });
const Forecast = z.object({
  runwayDays: z.number().int().nullable(),
  coversFloorNow: z.boolean(),
  underFloorOn: z.string().nullable(),
  daysToUnderFloor: z.number().int().nullable(),
  arrearsOn: z.string().nullable(),
  daysToArrears: z.number().int().nullable(),
});

export const DryRunReportSchema = z.object({
  path: z.string(),
  bucket: z.string(),
  mode: z.enum(['upload-only', 'mirror']),
  watched: z.boolean(),
  dedupe: z.boolean(),
  plan: z.object({
    upload: Count,
    skip: z.record(z.string(), z.object({ count: z.number().int(), examples: z.array(Example) })),
    alreadyLive: Count.extend({ examples: z.array(z.string()) }),
    onService: Count.extend({
      sameName: z.number().int(),
      examples: z.array(z.object({ name: z.string(), liveAs: z.string() })),
    }),
    linked: Count,
    renames: z.array(z.object({ from: z.string(), to: z.string() })),
    identical: z.array(z.object({ md5: z.string(), size: z.number(), paths: z.array(z.string()) })),
    replacedBytes: z.number(),
    deletes: z.number().int(),
    unreadable: z.array(Example),
  }),
  bill: z.object({
    bytesNow: z.number(),
    bytesAfter: z.number(),
    dailyRentNowPaise: z.number().int(),
    dailyRentAfterPaise: z.number().int(),
    monthlyAfterPaise: z.number().int(),
    folderShareDailyPaise: z.number().int(),
    walletPaise: z.number().int(),
    floorPaise: z.number().int(),
    after: Forecast,
    dedupeSaves: z.object({
      requests: z.number().int(),
      bytes: z.number(),
      dailyRentPaise: z.number().int(),
    }),
    at: z.string(),
  }),
  timing: z.object({
    requests: z.number().int(),
    requestSeconds: z.number(),
    byteSeconds: z.number().nullable(),
    seconds: z.number(),
    boundBy: z.enum(['requests', 'bytes']),
    limits: z.object({
      requestsPerMinute: z.number(),
      bandwidthBytesPerSecond: z.number().nullable(),
      schedule: z.string().nullable(),
    }),
    assumed: z.array(z.string()),
  }),
  readRequests: z.number().int(),
});
export type DryRunReportView = z.infer<typeof DryRunReportSchema>;

/**
 * Each watched folder's share of the daily rent: its live bytes' part of the account's bytes (last /me),
 * in whole paise that, with the other files' share, add up to the rent (src-shared/domain/rent-shares.ts).
 */
export const FolderRentSchema = z.object({
  folders: z.array(
    z.object({
      folderId: z.number().int(),
      path: z.string(),
      liveBytes: z.number(),
      dailySharePaise: z.number().int(),
    }),
  ),
  /** The account's files no watched folder holds, and their share. */
  other: z.object({ bytes: z.number(), dailySharePaise: z.number().int() }),
  /** The bytes the rent is charged on (the last /me), null before any /me. */
  accountBytes: z.number().nullable(),
  dailyRentPaise: z.number().int().nullable(),
  /** Some share is rounded to the paisa (said once, where they are listed together). */
  rounded: z.boolean(),
});

export const dryRunCommands = {
  'sync.preview': command(PreviewRequestSchema, DryRunReportSchema),
  'sync.folderRent': command(Empty, FolderRentSchema),
} as const;
