import type { LeadView } from '../../../../src-shared/contract/leads';

/** Who took the lead, on which desk: shared by every desk through the relay. */
export function HandledBy({ lead }: { lead: LeadView }) {
  if (!lead.handledAt || !lead.handledBy) return null;
  return <div className="small muted lead-handled-by">by {lead.handledBy}</div>;
}
