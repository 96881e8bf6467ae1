import type { ParsedLead } from '../../src-main/core/leads/payload';

/** A captured lead of the demo bot, as the receiver parses it, with `fields` over the defaults. */
export const lead = (conversationId: number, fields: Partial<ParsedLead>): ParsedLead => ({
  event: 'LEAD-CAPTURED',
  remoteBotId: 7,
  botName: 'Demo bot',
  businessName: 'Demo business',
  conversationId,
  name: '',
  email: '',
  phone: '',
  note: null,
  askedForAPerson: false,
  visitorRef: `visitor-${conversationId}`,
  startedAt: '2025-03-04 11:12',
  ...fields,
});
