import type { Statement } from '../../contract/statement';
import { csvLine } from '../csv';
import { formatIstMinute } from '../ist-time';

const rupees = (p: number | null): string => (p === null ? '' : (p / 100).toFixed(2));

/**
 * The statement for an accountant's spreadsheet: one row a day, one row a credit, then the totals.
 * Amounts are rupees with exact paise ("1234.50", no sign or grouping, so a sheet reads them as
 * numbers) beside the same in paise; dates are IST (`YYYY-MM-DD`, a moment `YYYY-MM-DD HH:MM`).
 */
export function statementCsv(s: Statement): string {
  const lines = [
    csvLine([
      'row',
      'date',
      'bytes_measured',
      'files_measured',
      'outcome',
      'rent_rupees',
      'rent_paise',
      'expected_rent_rupees',
      'expected_rent_paise',
      'arrears_booked_rupees',
      'credit_rupees',
      'credit_paise',
      'credit_window_from_ist',
      'credit_window_to_ist',
      'note',
    ]),
  ];
  for (const d of s.days) {
    if (d.future) continue;
    lines.push(
      csvLine([
        'day',
        d.date,
        d.measured?.bytesUsed ?? '',
        d.measured?.filesCount ?? '',
        d.measured?.outcome ?? 'unknown',
        rupees(d.measured?.rentPaise ?? null),
        d.measured?.rentPaise ?? '',
        rupees(d.expectedRentPaise),
        d.expectedRentPaise ?? '',
        rupees(d.arrearsBookedPaise),
        '',
        '',
        '',
        '',
        d.flags.map((f) => f.sentence).join(' '),
      ]),
    );
  }
  for (const c of s.credits)
    lines.push(
      csvLine([
        'credit',
        formatIstMinute(c.toMs).slice(0, 10),
        '',
        '',
        'inferred',
        '',
        '',
        '',
        '',
        '',
        rupees(c.amountPaise),
        c.amountPaise,
        formatIstMinute(c.fromMs),
        formatIstMinute(c.toMs),
        c.arrearsPaidPaise ? `of which ${rupees(c.arrearsPaidPaise)} paid arrears` : '',
      ]),
    );
  const total = (name: string, p: number | null) =>
    csvLine(['total', s.month, '', '', name, rupees(p), p ?? '', '', '', '', '', '', '', '', '']);
  lines.push(
    total('opening', s.openingPaise),
    total('credits', s.creditsPaise),
    total('rent', s.rentPaise),
    total('closing', s.closingPaise),
    total('arrears_booked', s.arrearsBookedPaise),
    total('arrears_paid', s.arrearsPaidPaise),
  );
  return lines.join('');
}
