import { z } from 'zod';
import { command } from './define';

/**
 * The admin's month (issue 35): a statement of the wallet for one IST month of the service's clock,
 * the app's own check of every day's rent, and where the money goes. Money in paise, dates IST
 * (`YYYY-MM-DD`), moments in epoch ms of the service's clock. Built in src-shared/domain/statement.
 */
export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

const RuleSchema = z.object({
  gb: z.enum(['binary', 'decimal']),
  month: z.enum(['thirty', 'calendar', 'year']),
  rounding: z.enum(['down', 'nearest', 'up']),
});

export const StatementFlagSchema = z.object({
  date: z.string(),
  /** `charge`: the rent is not what the rule gives for the bytes the service measured; `bytes`: the
   * service measured other bytes than the app's index held live at that midnight. */
  kind: z.enum(['charge', 'bytes']),
  /** Charged minus what the app expected, paise (positive: charged too much). */
  differencePaise: z.number().int(),
  /** Measured minus the app's own bytes (0 for a charge flag). */
  differenceBytes: z.number().int(),
  sentence: z.string(),
});
export type StatementFlag = z.infer<typeof StatementFlagSchema>;

export const StatementDaySchema = z.object({
  date: z.string(),
  /** The service's snapshot of the day; null when the app never read it (unknown). */
  measured: z
    .object({
      bytesUsed: z.number().int(),
      filesCount: z.number().int(),
      rentPaise: z.number().int(),
      outcome: z.string(),
    })
    .nullable(),
  /** Bytes and files live in the app's index at the midnight that ended the day; null when the app
   * was not watching yet (its first /me read is later). */
  own: z.object({ bytesUsed: z.number().int(), filesCount: z.number().int() }).nullable(),
  /** The app's own figure: the rule found, applied to its own bytes at /me's price; null: unknown. */
  expectedRentPaise: z.number().int().nullable(),
  /** The part of the day's rent booked as arrears (inferred from the balances read); null: unknown. */
  arrearsBookedPaise: z.number().int().nullable(),
  flags: z.array(StatementFlagSchema),
  /** Not yet charged (the day has not ended on the service's clock). */
  future: z.boolean(),
});
export type StatementDay = z.infer<typeof StatementDaySchema>;

export const StatementCreditSchema = z.object({
  /** The two /me reads between which the wallet rose more than rent explains. */
  fromMs: z.number(),
  toMs: z.number(),
  amountPaise: z.number().int(),
  /** Of it, what paid arrears (inferred). */
  arrearsPaidPaise: z.number().int(),
  inferred: z.literal(true),
});
export type StatementCredit = z.infer<typeof StatementCreditSchema>;

export const ShareSchema = z.object({
  label: z.string(),
  /** Bytes live at the month's last measured midnight (or now). */
  bytes: z.number().int(),
  /** Its share of the month's rent, by bytes x days live. */
  rentPaise: z.number().int(),
});
export type Share = z.infer<typeof ShareSchema>;

export const BreakdownSchema = z.object({
  byBucket: z.array(ShareSchema),
  byFolder: z.array(ShareSchema),
  byType: z.array(ShareSchema),
  largest: z.array(ShareSchema),
  /** Rent the index cannot place (files it never saw, paise lost in the split). */
  otherPaise: z.number().int(),
  totalPaise: z.number().int(),
  duplicates: z.object({
    extraCopies: z.number().int(),
    bytes: z.number().int(),
    savingPerMonthPaise: z.number().int(),
  }),
});
export type Breakdown = z.infer<typeof BreakdownSchema>;

export const StatementSchema = z.object({
  account: z.object({ name: z.string(), clientId: z.number().int(), service: z.string() }),
  month: z.string(),
  /** The service's clock when it was built. */
  builtAtMs: z.number(),
  /** The month has ended on the service's clock (its last day charged). */
  complete: z.boolean(),
  /** Wallet position = balance - arrears; null when unknown (no read before the month began). */
  openingPaise: z.number().int().nullable(),
  closingPaise: z.number().int().nullable(),
  rentPaise: z.number().int(),
  creditsPaise: z.number().int(),
  arrearsBookedPaise: z.number().int(),
  arrearsPaidPaise: z.number().int(),
  /** opening + credits - rent = closing holds (false only when a figure is unknown). */
  balances: z.boolean(),
  days: z.array(StatementDaySchema),
  credits: z.array(StatementCreditSchema),
  /** Windows without a /me read for more than a day: a credit in one is dated only to it. */
  gaps: z.array(z.object({ fromMs: z.number(), toMs: z.number() })),
  /** Sentences for what is unknown and why. */
  unknowns: z.array(z.string()),
  rule: z.object({
    rule: RuleSchema,
    sentence: z.string(),
    fits: z.number().int(),
    of: z.number().int(),
    alsoFit: z.array(z.string()),
  }),
  flags: z.array(StatementFlagSchema),
  breakdown: BreakdownSchema,
});
export type Statement = z.infer<typeof StatementSchema>;

const MonthRequest = z
  .object({
    /** `YYYY-MM`; the service's current month when left out. */
    month: z.string().regex(MONTH_PATTERN, 'month must be YYYY-MM').optional(),
    /** Read /me, /usage and the index's new files first (false: from what the app holds). */
    refresh: z.boolean().default(true),
  })
  .strict();

export const statementCommands = {
  'statement.get': command(MonthRequest, StatementSchema),
  /** The statement as a PDF (base64) and its file name. */
  'statement.pdf': command(MonthRequest, z.object({ fileName: z.string(), base64: z.string() })),
} as const;
