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

const PHONE_LIKE = /^[+-]?[\d\s().-]+$/;

/**
 * Visitor-typed text opened in a spreadsheet must stay text: a cell starting with = + - @ would
 * run as a formula, so it gets a leading apostrophe (a phone number like +91 98... is left as is).
 */
function neutralise(value: string): string {
  if (/^[=+\-@\t\r]/.test(value) && !PHONE_LIKE.test(value)) return `'${value}`;
  return value;
}

function cell(value: string): string {
  const v = neutralise(value);
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** RFC 4180 CSV (CRLF line ends), newest first as given. */
export function leadsToCsv(leads: readonly StoredLead[]): string {
  const lines = [COLUMNS.map(([h]) => h).join(',')];
  for (const l of leads) lines.push(COLUMNS.map(([, get]) => cell(get(l))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
