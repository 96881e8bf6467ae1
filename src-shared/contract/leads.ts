import { z } from 'zod';
import { AppErrorSchema, command, Empty } from './define';

export const LeadViewSchema = z.object({
  id: z.number().int(),
  botId: z.number().int(),
  botName: z.string(),
  businessName: z.string(),
  conversationId: z.number().int(),
  event: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  note: z.string().nullable(),
  askedForAPerson: z.boolean(),
  visitorRef: z.string(),
  startedAt: z.string(),
  receivedAt: z.string(),
  handledAt: z.string().nullable(),
  /** Who marked it handled (this desk or another, through the relay). */
  handledBy: z.string().nullable(),
});
export type LeadView = z.infer<typeof LeadViewSchema>;

export const ReceiverViewSchema = z.object({
  running: z.boolean(),
  /** The address the service must POST to (local; expose it through a tunnel for a real account). */
  url: z.string().nullable(),
  host: z.string(),
  port: z.number().int(),
  path: z.string(),
  error: AppErrorSchema.nullable(),
});
export type ReceiverView = z.infer<typeof ReceiverViewSchema>;

/** Where this desk's leads come from, and the relay's state when there is one (docs/relay.md). */
export const RelayViewSchema = z.object({
  /** `relay` when one is configured (saved here or ASSETS_RELAY_URL), else this computer's `receiver`. */
  source: z.enum(['relay', 'receiver']),
  url: z.string().nullable(),
  /** `env` when ASSETS_RELAY_URL and ASSETS_RELAY_TOKEN set it (then it cannot be changed here). */
  from: z.enum(['saved', 'env']).nullable(),
  /** The name this desk signs its "handled" marks with. */
  deskName: z.string(),
  /** The last pull answered (and none failed since). */
  connected: z.boolean(),
  lastPullAt: z.string().nullable(),
  /** Deliveries the relay holds that this desk has not read yet. */
  waiting: z.number().int(),
  /** Deliveries this desk refused (forged, altered, or of a bot whose secret is not set up here). */
  rejected: z.number().int(),
  /** Leads the relay's retention deleted before this desk read them: they cannot be read any more. */
  expired: z.number().int(),
  error: AppErrorSchema.nullable(),
  /**
   * Where the sandbox's demo bot posts its leads: to the relay (its webhook URL was given here), or
   * straight to this computer's receiver; null when there is no sandbox bot (a real account).
   */
  sandboxBot: z.enum(['relay', 'receiver']).nullable(),
});
export type RelayView = z.infer<typeof RelayViewSchema>;

export const RejectedDeliverySchema = z.object({
  id: z.number().int(),
  relaySeq: z.number().int(),
  receivedAt: z.string(),
  code: z.string(),
  reason: z.string(),
  conversationId: z.number().int().nullable(),
  /** The bot id and name the body claims (not verified: that is why it was refused). */
  claimedBotId: z.number().int().nullable(),
  claimedName: z.string(),
});
export type RejectedDelivery = z.infer<typeof RejectedDeliverySchema>;

/**
 * What the badge "Wants a person" marks: a handoff, or a lead whose visitor asked for a person. The
 * filter of that name selects exactly these (the core's list says the same in SQL), so one state has
 * one name and one set of rows (issue 23); the service's `event` itself stays as sent.
 */
export const wantsAPerson = (l: Pick<LeadView, 'event' | 'askedForAPerson'>): boolean =>
  l.askedForAPerson || l.event === 'HANDOFF-REQUESTED';

/** The filter's `event` on one lead, as the core's list applies it: by `wantsAPerson`, not the event alone. */
export const fitsLeadFilter = (
  l: Pick<LeadView, 'event' | 'askedForAPerson'>,
  event: 'LEAD-CAPTURED' | 'HANDOFF-REQUESTED' | undefined,
): boolean => event === undefined || wantsAPerson(l) === (event === 'HANDOFF-REQUESTED');

const LeadFilter = z.object({
  /** `HANDOFF-REQUESTED`: the leads that want a person (`wantsAPerson`); `LEAD-CAPTURED`: the others. */
  event: z.enum(['LEAD-CAPTURED', 'HANDOFF-REQUESTED']).optional(),
  handled: z.boolean().optional(),
  /** Words found in the name, email, phone (digits alone match too), note or anything the visitor sent. */
  query: z.string().max(200).optional(),
});

export const LeadDetailSchema = z.object({
  lead: LeadViewSchema,
  /** The delivery's body as received, indented (it holds only what the visitor typed and the bot). */
  payload: z.string(),
});
export type LeadDetail = z.infer<typeof LeadDetailSchema>;

export const leadsCommands = {
  'leads.list': command(
    LeadFilter.extend({ limit: z.number().int().min(1).max(5000).optional() }).strict(),
    z.object({ leads: z.array(LeadViewSchema), receiver: ReceiverViewSchema }),
  ),
  'leads.get': command(z.object({ leadId: z.number().int().positive() }).strict(), LeadDetailSchema),
  'leads.setHandled': command(
    z.object({ leadId: z.number().int().positive(), handled: z.boolean() }).strict(),
    LeadViewSchema,
  ),
  'leads.exportCsv': command(LeadFilter.strict(), z.object({ filename: z.string(), csv: z.string() })),
  'leads.receiver': command(Empty, ReceiverViewSchema),
  /**
   * Moves the receiver (restarts it); the sandbox bot's webhook URL follows. A host other than
   * loopback (0.0.0.0, ::, a network address) opens it to the network: it needs `exposeToNetwork: true`,
   * else the answer is LEADS-HOST-NEEDS-CONFIRMATION and nothing changes.
   */
  'leads.configureReceiver': command(
    z
      .object({
        exposeToNetwork: z.literal(true).optional(),
        host: z.string().trim().min(1).max(255).optional(),
        port: z.number().int().min(0).max(65_535).optional(),
        path: z
          .string()
          .regex(/^\/[A-Za-z0-9._~\-/]{0,200}$/, 'a path such as /webhooks/leads')
          .optional(),
      })
      .strict(),
    ReceiverViewSchema,
  ),
  'leads.relay': command(Empty, RelayViewSchema),
  /**
   * Receive through a relay: its address and read token, or the whole JSON line the relay printed
   * when ready (`printed`). The relay is asked once before anything is saved. `http://` to another
   * machine would send the token in clear: it needs `allowInsecure: true`.
   */
  'leads.connectRelay': command(
    z
      .object({
        url: z.string().trim().min(1).max(2000).optional(),
        token: z.string().trim().min(1).max(500).optional(),
        printed: z.string().trim().min(1).max(5000).optional(),
        /** The relay's webhook URL, for the sandbox's demo bot (the ready line carries it too). */
        webhookUrl: z.string().trim().min(1).max(2000).optional(),
        deskName: z.string().trim().min(1).max(100).optional(),
        allowInsecure: z.literal(true).optional(),
      })
      .strict(),
    RelayViewSchema,
  ),
  /** Back to this computer's receiver; the leads already pulled stay. */
  'leads.disconnectRelay': command(Empty, RelayViewSchema),
  'leads.rejected': command(Empty, z.object({ rejected: z.array(RejectedDeliverySchema) })),
} as const;

export const leadsEvents = {
  'leads.new': LeadViewSchema,
  'leads.changed': LeadViewSchema,
  'leads.receiver': ReceiverViewSchema,
  'leads.relay': RelayViewSchema,
  /**
   * Many leads at once (a desk catching up with its relay): one event instead of one `leads.new`
   * each, so the list reloads once and the desktop shows one notification, not a hundred.
   */
  'leads.arrived': z.object({ count: z.number().int().positive() }),
} as const;
