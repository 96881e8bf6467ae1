import { z } from 'zod';

/**
 * The webhook body as the receiver accepts it. Once the signature proved the service sent it, a
 * field the document leaves open (a handoff's payload "may differ") must not cost the lead: only
 * `conversation.id`, the deduplication key, is required; text fields missing become empty.
 */
const text = z
  .unknown()
  .transform((v) => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v)));

export const ReceivedLeadSchema = z.object({
  event: z.string().min(1).max(64),
  bot: z
    .object({ id: z.number().int().optional(), name: text.optional(), business_name: text.optional() })
    .partial()
    .default({}),
  lead: z
    .object({
      name: text.optional(),
      email: text.optional(),
      phone: text.optional(),
      note: z.string().nullable().optional(),
      asked_for_a_person: z.boolean().optional(),
    })
    .default({}),
  conversation: z.object({
    id: z.number().int(),
    visitor_ref: text.optional(),
    started_at: text.optional(),
  }),
});

export interface ParsedLead {
  event: string;
  remoteBotId: number | null;
  botName: string;
  businessName: string;
  conversationId: number;
  name: string;
  email: string;
  phone: string;
  note: string | null;
  askedForAPerson: boolean;
  visitorRef: string;
  startedAt: string;
}

export function parseLeadBody(raw: Buffer): { ok: true; lead: ParsedLead } | { ok: false; message: string } {
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    return { ok: false, message: 'The body is not JSON.' };
  }
  const parsed = ReceivedLeadSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, message: `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'malformed'}` };
  }
  const p = parsed.data;
  return {
    ok: true,
    lead: {
      event: p.event,
      remoteBotId: p.bot.id ?? null,
      botName: p.bot.name ?? '',
      businessName: p.bot.business_name ?? '',
      conversationId: p.conversation.id,
      name: p.lead.name ?? '',
      email: p.lead.email ?? '',
      phone: p.lead.phone ?? '',
      note: p.lead.note ?? null,
      askedForAPerson: p.lead.asked_for_a_person ?? p.event === 'HANDOFF-REQUESTED',
      visitorRef: p.conversation.visitor_ref ?? '',
      startedAt: p.conversation.started_at ?? '',
    },
  };
}
