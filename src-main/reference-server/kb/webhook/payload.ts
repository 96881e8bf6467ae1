import type { LeadEvent, LeadWebhookPayload } from '../../../../src-shared/api/knowledge';
import { formatIstMinute } from '../../../../src-shared/domain/ist-time';
import type { Bot } from '../bots';

export interface LeadInput {
  name: string;
  email: string;
  phone: string;
  note?: string | null | undefined;
  asked_for_a_person?: boolean | undefined;
}

/**
 * The payload of section 2, fields in the documented order. A handoff is a request for a person, so
 * `asked_for_a_person` defaults to true for HANDOFF-REQUESTED and false for LEAD-CAPTURED.
 */
export function buildLeadPayload(
  event: LeadEvent,
  bot: Bot,
  lead: LeadInput,
  conversation: { id: number; visitorRef: string; startedAtMs: number },
): LeadWebhookPayload {
  return {
    event,
    bot: { id: bot.id, name: bot.name, business_name: bot.businessName },
    lead: {
      name: lead.name,
      email: lead.email,
      phone: lead.phone,
      note: lead.note ?? null,
      asked_for_a_person: lead.asked_for_a_person ?? event === 'HANDOFF-REQUESTED',
    },
    conversation: {
      id: conversation.id,
      visitor_ref: conversation.visitorRef,
      started_at: formatIstMinute(conversation.startedAtMs),
    },
  };
}

/** Encoded once and stored: the signature covers these bytes and every retry sends them unchanged. */
export const encodePayload = (payload: LeadWebhookPayload): Buffer =>
  Buffer.from(JSON.stringify(payload), 'utf8');
