import { z } from 'zod';

/** Schemas of the knowledge-entry API and the lead webhook (`../shared/spec/knowledge-entry-api-and-webhook.md`). */

export const KB_ENTRIES_PATH = '/api/mebot/kb/entries';

export const KbEntrySchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  source: z.string(),
  sort_order: z.number().int(),
  updated_at: z.string(),
});
export type KbEntry = z.infer<typeof KbEntrySchema>;

export const KbListReplySchema = z.object({ ok: z.literal(true), entries: z.array(KbEntrySchema) });
export const KbEntryReplySchema = z.object({ ok: z.literal(true), entry: KbEntrySchema });
export const KbOkReplySchema = z.object({ ok: z.literal(true) });
export const KbFailureSchema = z.object({ ok: z.literal(false), error: z.string() });

export const LEAD_EVENTS = ['LEAD-CAPTURED', 'HANDOFF-REQUESTED'] as const;
export const LeadEventSchema = z.enum(LEAD_EVENTS);
export type LeadEvent = z.infer<typeof LeadEventSchema>;

export const LeadWebhookPayloadSchema = z.object({
  event: LeadEventSchema,
  bot: z.object({ id: z.number().int(), name: z.string(), business_name: z.string() }),
  lead: z.object({
    name: z.string(),
    email: z.string(),
    phone: z.string(),
    note: z.string().nullable(),
    asked_for_a_person: z.boolean(),
  }),
  conversation: z.object({
    id: z.number().int(),
    visitor_ref: z.string(),
    started_at: z.string(),
  }),
});
export type LeadWebhookPayload = z.infer<typeof LeadWebhookPayloadSchema>;

export const SIGNATURE_HEADER = 'x-service-signature';
export const EVENT_HEADER = 'x-service-event';
