import { z } from 'zod';

/**
 * A lead delivery's body as a receiver accepts it: the desktop receiver after the signature matched,
 * the relay before storing (so it never keeps what no desk would take), and each desk pulling from a
 * relay. The document leaves a handoff's payload open ("may differ"), so only `conversation.id`, the
 * deduplication key, is required and a missing or null text becomes empty; but a field that is there
 * must have its documented type: an object where a text belongs is refused with the field named
 * (it once went through `String()` and ended in "Cannot convert object to primitive value").
 */
const text = z.string().nullable().optional();

export const LeadDeliverySchema = z.object({
  event: z.string().min(1).max(64),
  bot: z.object({ id: z.number().int().optional(), name: text, business_name: text }).nullable().optional(),
  lead: z
    .object({
      name: text,
      email: text,
      phone: text,
      note: text,
      asked_for_a_person: z.boolean().nullable().optional(),
    })
    .nullable()
    .optional(),
  conversation: z.object({
    id: z.number().int(),
    visitor_ref: text,
    started_at: text,
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

export type LeadParse =
  | { ok: true; lead: ParsedLead }
  /** `NOT-JSON` (400): the bytes are no JSON; `SHAPE` (422): `field` has the wrong type or is missing. */
  | { ok: false; code: 'NOT-JSON' | 'SHAPE'; field: string | null; message: string };

/** Parses a delivery's text (its bytes as UTF-8); errors name the first faulty field, e.g. `lead.name`. */
export function parseLeadDelivery(text: string): LeadParse {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, code: 'NOT-JSON', field: null, message: 'The body is not JSON.' };
  }
  const parsed = LeadDeliverySchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.map(String).join('.') || null;
    return {
      ok: false,
      code: 'SHAPE',
      field,
      message: `${field ?? 'body'}: ${issue?.message ?? 'malformed'}`,
    };
  }
  const p = parsed.data;
  const bot = p.bot ?? {};
  const lead = p.lead ?? {};
  return {
    ok: true,
    lead: {
      event: p.event,
      remoteBotId: bot.id ?? null,
      botName: bot.name ?? '',
      businessName: bot.business_name ?? '',
      conversationId: p.conversation.id,
      name: lead.name ?? '',
      email: lead.email ?? '',
      phone: lead.phone ?? '',
      note: lead.note ?? null,
      askedForAPerson: lead.asked_for_a_person ?? p.event === 'HANDOFF-REQUESTED',
      visitorRef: p.conversation.visitor_ref ?? '',
      startedAt: p.conversation.started_at ?? '',
    },
  };
}
