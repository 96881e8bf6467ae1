import { wantsAPerson } from '../../../src-shared/contract/leads';
import { csvLine } from '../../../src-shared/domain/csv';
import { csvTime, csvTimeHeader } from '../../../src-shared/domain/time-format';
import { leadEventText } from '../../../src-shared/domain/words';
import type { StoredLead } from './leads-store';

const COLUMNS: [string, (l: StoredLead) => string][] = [
  [csvTimeHeader('received_at'), (l) => csvTime(l.receivedAt)],
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
  [csvTimeHeader('started_at'), (l) => csvTime(l.startedAt)],
  [csvTimeHeader('handled_at'), (l) => csvTime(l.handledAt)],
  // The service's code stays in `event` for machines; a person reads this one (the app's words).
  ['event_in_words', (l) => (wantsAPerson(l) ? 'Wants a person' : leadEventText(l.event))],
];

/**
 * RFC 4180 CSV (CRLF line ends), newest first as given; visitor-typed text stays text (csv.ts). Every
 * time is ISO 8601 with its offset (+05:30), so a spreadsheet reads the moment right (issue 23), and its
 * header says so (issue 34). Columns are only ever added at the end: machines read them by position.
 */
export function leadsToCsv(leads: readonly StoredLead[]): string {
  let out = csvLine(COLUMNS.map(([h]) => h));
  for (const l of leads) out += csvLine(COLUMNS.map(([, get]) => get(l)));
  return out;
}
