import { csvLine } from '../../../src-shared/domain/csv';
import type { StoredLead } from './leads-store';

const COLUMNS: [string, (l: StoredLead) => string][] = [
  ['received_at', (l) => l.receivedAt],
  ['event', (l) => l.event],
  ['handoff', (l) => (l.askedForAPerson || l.event === 'HANDOFF-REQUESTED' ? 'yes' : 'no')],
  ['name', (l) => l.name],
  ['email', (l) => l.email],
  ['phone', (l) => l.phone],
  ['note', (l) => l.note ?? ''],
  ['bot', (l) => l.botName],
  ['business', (l) => l.businessName],
  ['conversation_id', (l) => String(l.conversationId)],
  ['visitor_ref', (l) => l.visitorRef],
  ['started_at', (l) => l.startedAt],
  ['handled_at', (l) => l.handledAt ?? ''],
];

/** RFC 4180 CSV (CRLF line ends), newest first as given; visitor-typed text stays text (csv.ts). */
export function leadsToCsv(leads: readonly StoredLead[]): string {
  let out = csvLine(COLUMNS.map(([h]) => h));
  for (const l of leads) out += csvLine(COLUMNS.map(([, get]) => get(l)));
  return out;
}
