import { wantsAPerson } from '../../../src-shared/contract/leads';
import { csvLine } from '../../../src-shared/domain/csv';
import { csvTime } from '../../../src-shared/domain/time-format';
import type { StoredLead } from './leads-store';

const COLUMNS: [string, (l: StoredLead) => string][] = [
  ['received_at', (l) => csvTime(l.receivedAt)],
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
  ['started_at', (l) => csvTime(l.startedAt)],
  ['handled_at', (l) => csvTime(l.handledAt)],
];

/**
 * RFC 4180 CSV (CRLF line ends), newest first as given; visitor-typed text stays text (csv.ts). Every
 * time is ISO 8601 with its offset (+05:30), so a spreadsheet reads the moment right (issue 23).
 */
export function leadsToCsv(leads: readonly StoredLead[]): string {
  let out = csvLine(COLUMNS.map(([h]) => h));
  for (const l of leads) out += csvLine(COLUMNS.map(([, get]) => get(l)));
  return out;
}
