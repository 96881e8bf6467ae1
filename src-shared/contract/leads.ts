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

const LeadFilter = z.object({
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
} as const;

export const leadsEvents = {
  'leads.new': LeadViewSchema,
  'leads.changed': LeadViewSchema,
  'leads.receiver': ReceiverViewSchema,
} as const;
