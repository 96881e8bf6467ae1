import { wantsAPerson } from '../../../src-shared/contract/leads';
import { csvLine } from '../../../src-shared/domain/csv';
import { leadClock, leadKindText } from '../../../src-shared/domain/lead-words';
import { csvTime, csvTimeHeader } from '../../../src-shared/domain/time-format';
import type { StoredLead } from './leads-store';

/** The columns; a time's header names its clock, in the Leads view's words (lead-words.ts). */
const columns = (sandbox: boolean): [string, (l: StoredLead) => string][] => [
  [csvTimeHeader('received_at', leadClock('received', sandbox)), (l) => csvTime(l.receivedAt)],
  ['event', (l) => l.event],
  ['handoff', (l) => (wantsAPerson(l) ? 'yes' : 'no')],
  ['name', (l) => l.name],
  ['email', (l) => l.email],
  ['phone', (l) => l.phone],
  ['note', (l) => l.note ?? ''],
  ['bot', (l) => l.botName],
  ['business', (l) => l.businessName],
  ['conversation_id', (l) => String(l.conversationId)],
  ['visitor_ref', (l) => l.visitorRef],
  [csvTimeHeader('started_at', leadClock('started', sandbox)), (l) => csvTime(l.startedAt)],
  [csvTimeHeader('handled_at', leadClock('handled', sandbox)), (l) => csvTime(l.handledAt)],
  // The service's code stays in `event` for machines; a person reads this one: the row's badge and
  // the filter that shows it ("Lead", "Wants a person").
  ['event_in_words', (l) => leadKindText(wantsAPerson(l))],
];

/**
 * RFC 4180 CSV (CRLF line ends), newest first as given; visitor-typed text stays text (csv.ts). Every
 * time is ISO 8601 with its offset (+05:30), so a spreadsheet reads the moment right (issue 23), and its
 * header says so and on which clock (issue 34: the sandbox's clock may be days ahead of this
 * computer's; `sandbox` says the leads came through it). Columns are only ever added at the end: machines read them by position.
 */
export function leadsToCsv(leads: readonly StoredLead[], o: { sandbox?: boolean } = {}): string {
  const cols = columns(o.sandbox ?? false);
  let out = csvLine(cols.map(([h]) => h));
  for (const l of leads) out += csvLine(cols.map(([, get]) => get(l)));
  return out;
}
