import { z } from 'zod';

/**
 * The relay's wire format (docs/relay.md), shared by the relay (`src-main/relay`) and the desks that
 * pull from it (`src-main/core/leads/relay`). The relay holds no signing secret: a delivery is handed
 * on as the exact bytes and signature it received, and a "handled" mark is signed by the desk that
 * made it, so that neither the relay nor anyone holding its read token can plant a lead or a mark.
 */

/** Where desks read; every route under it needs `Authorization: Bearer <read token>`. */
export const RELAY_FEED_PATH = '/v1/feed';
export const RELAY_MARKS_PATH = '/v1/marks';
export const RELAY_STATUS_PATH = '/v1/status';
/** The webhook path is this plus the relay's webhook secret (separate from the read token). */
export const RELAY_HOOK_PREFIX = '/hooks/';

/** The longest a feed request is held open when nothing is new (seconds). */
export const RELAY_MAX_WAIT_S = 25;
export const RELAY_MAX_BATCH = 500;

export const RelayDeliverySchema = z.object({
  seq: z.number().int().positive(),
  /** When the relay stored it (ISO 8601 UTC). */
  receivedAt: z.string(),
  /** `X-Service-Event` and `X-Service-Signature` as received (null when absent). */
  event: z.string().nullable(),
  signature: z.string().nullable(),
  /** The body's exact bytes, base64. */
  body: z.string(),
});
export type RelayDelivery = z.infer<typeof RelayDeliverySchema>;

const DeskName = z.string().trim().min(1).max(100);

/** A desk's "handled" state of one conversation, signed with that bot's signing secret. */
export const RelayMarkInputSchema = z
  .object({
    /** `bot.id` of the delivery (0 when it had none). */
    botId: z.number().int().min(0),
    conversationId: z.number().int(),
    handled: z.boolean(),
    by: DeskName,
    /** When the desk made the change (ISO 8601 UTC); the latest wins. */
    at: z.string().datetime(),
    /** Hex HMAC-SHA256 of `markSigningText(...)` with the bot's signing secret. */
    sig: z.string().regex(/^[0-9a-f]{64}$/),
  })
  .strict();
export type RelayMarkInput = z.infer<typeof RelayMarkInputSchema>;

export const RelayMarkSchema = RelayMarkInputSchema.extend({ seq: z.number().int().positive() });
export type RelayMark = z.infer<typeof RelayMarkSchema>;

export const RelayFeedSchema = z.object({
  ok: z.literal(true),
  deliveries: z.array(RelayDeliverySchema),
  marks: z.array(RelayMarkSchema),
  /** The cursor to send next time (the highest seq in this answer, or `after` when it was empty). */
  next: z.number().int().min(0),
  /** Deliveries stored after `next`: what this desk has still to read. */
  waiting: z.number().int().min(0),
  /**
   * Deliveries after `after` that the relay's retention deleted before this desk read them (`next`
   * is past them): leads this desk can no longer get. Absent from relays before issue 32.
   */
  expired: z.number().int().min(0).default(0),
});
export type RelayFeed = z.infer<typeof RelayFeedSchema>;

export const RelayStatusSchema = z.object({
  ok: z.literal(true),
  deliveries: z.number().int(),
  retentionDays: z.number(),
  oldestAt: z.string().nullable(),
});

/** What `assets-sync relay` prints when ready (one JSON line), which a desk may paste whole. */
export const RelayReadyLineSchema = z.object({
  event: z.literal('ready'),
  url: z.string(),
  webhook_url: z.string(),
  token: z.string(),
  public_url: z.string().optional(),
});

/**
 * The exact text a mark's HMAC covers: one field a line, so no field can run into the next. The
 * conversation and bot are in it, so a mark cannot be moved to another lead.
 */
export function markSigningText(m: Omit<RelayMarkInput, 'sig'>): string {
  return ['assets-sync-handled-v1', m.botId, m.conversationId, m.handled ? 1 : 0, m.by, m.at].join('\n');
}
