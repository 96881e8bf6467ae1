import { writeFileSync } from 'node:fs';
import { MONTH_PATTERN, type Statement } from '../../../src-shared/contract/statement';
import { formatBytes } from '../../../src-shared/domain/bytes';
import { formatIstSecond } from '../../../src-shared/domain/ist-time';
import { formatRupees } from '../../../src-shared/domain/money';
import { creditWindowText, OTHER } from '../../../src-shared/domain/statement/month-statement';
import { statementCsv } from '../../../src-shared/domain/statement/statement-csv';
import { appError } from '../../../src-shared/errors';
import { statementForCommand, statementPdf } from '../../core';
import { EXIT, parseCommand, withConnection } from '../common';

const USAGE = `assets-sync statement [--month YYYY-MM] [--json] [--csv] [--pdf FILE]
  The month's statement of the wallet (IST days of the service's clock; default: its current month):
  opening and closing, each day's bytes, files and rent beside the app's own figure, the rule found,
  days flagged, credits inferred from the balances read, and where the money goes.
  --json  one line a day (date, rent_paise, expected_rent_paise...), then one summary line
  --csv   one row a day and one a credit, then the totals (rupees with paise, and paise)
  --pdf   also write the statement as a PDF to FILE`;

export async function run(argv: string[]): Promise<number> {
  const p = parseCommand('statement', argv, {
    options: { month: { type: 'string' }, csv: { type: 'boolean' }, pdf: { type: 'string' } },
    usage: USAGE,
  });
  if (!p.ok) return p.exitCode;
  const { common, out, values } = p;
  if (values.month !== undefined && !MONTH_PATTERN.test(values.month)) {
    out.error(appError('VALIDATION', `--month takes YYYY-MM (such as 2026-11), got "${values.month}".`));
    return EXIT.usage;
  }
  if (values.csv && out.json) {
    out.error(appError('VALIDATION', '--csv and --json each print the statement: choose one.'));
    return EXIT.usage;
  }
  if (values.pdf === '') {
    out.error(appError('VALIDATION', '--pdf needs a file name.'));
    return EXIT.usage;
  }
  return withConnection(common, out, async (s) => {
    const r = await statementForCommand({
      state: s.state,
      connection: s.connection,
      client: s.client,
      month: values.month,
    });
    if (!r.ok) {
      out.error(r.error);
      return r.error.code === 'VALIDATION' ? EXIT.usage : EXIT.failed;
    }
    const st = r.value;
    if (values.pdf) {
      try {
        writeFileSync(values.pdf, await statementPdf(st));
      } catch (e) {
        out.error(
          appError(
            'WRITE-FAILED',
            `The PDF could not be written to ${values.pdf}: ${e instanceof Error ? e.message : String(e)}`,
          ),
        );
        return EXIT.failed;
      }
    }
    if (values.csv) {
      process.stdout.write(statementCsv(st));
    } else if (out.json) {
      for (const d of st.days) {
        if (d.future) continue;
        out.emit(null, {
          event: 'statement.day',
          date: d.date,
          bytes_used: d.measured?.bytesUsed ?? null,
          files_count: d.measured?.filesCount ?? null,
          outcome: d.measured?.outcome ?? null,
          rent_paise: d.measured?.rentPaise ?? null,
          expected_rent_paise: d.expectedRentPaise,
          own_bytes: d.own?.bytesUsed ?? null,
          arrears_booked_paise: d.arrearsBookedPaise,
          flags: d.flags.map((f) => ({
            kind: f.kind,
            difference_paise: f.differencePaise,
            sentence: f.sentence,
          })),
        });
      }
      out.emit(null, summaryJson(st));
    } else out.emit(render(st), {});
    if (values.pdf) out.note(`Wrote the PDF to ${values.pdf}.`);
    return EXIT.ok;
  });
}

function summaryJson(st: Statement) {
  return {
    event: 'statement.summary',
    month: st.month,
    account: { name: st.account.name, client_id: st.account.clientId },
    complete: st.complete,
    opening_paise: st.openingPaise,
    credits_paise: st.creditsPaise,
    rent_paise: st.rentPaise,
    closing_paise: st.closingPaise,
    arrears_booked_paise: st.arrearsBookedPaise,
    arrears_paid_paise: st.arrearsPaidPaise,
    balances: st.balances,
    rule: st.rule.sentence,
    rule_fits: st.rule.fits,
    rule_days: st.rule.of,
    flags: st.flags.map((f) => ({ date: f.date, kind: f.kind, difference_paise: f.differencePaise })),
    credits: st.credits.map((c) => ({
      amount_paise: c.amountPaise,
      arrears_paid_paise: c.arrearsPaidPaise,
      from_ist: formatIstSecond(c.fromMs),
      to_ist: formatIstSecond(c.toMs),
      inferred: true,
    })),
    unknowns: st.unknowns,
    other_files_paise: st.breakdown.otherPaise,
    duplicates_saving_per_month_paise: st.breakdown.duplicates.savingPerMonthPaise,
  };
}

const money = (p: number | null) => (p === null ? 'unknown' : formatRupees(p));

function render(st: Statement): string {
  const lines = [
    `Statement ${st.month} of ${st.account.name || `client ${st.account.clientId}`}${st.complete ? '' : ' (so far)'}`,
    `  opening ${money(st.openingPaise)}  + credits ${formatRupees(st.creditsPaise)}  - rent ${formatRupees(st.rentPaise)}  = closing ${money(st.closingPaise)}${st.balances ? '' : '  (cannot be checked: a figure is unknown)'}`,
    `  arrears booked ${formatRupees(st.arrearsBookedPaise)}, paid ${formatRupees(st.arrearsPaidPaise)}`,
    `  rule: ${st.rule.sentence}`,
    '',
    `${'date'.padEnd(12)}${'stored'.padStart(11)}${'files'.padStart(7)}  ${'outcome'.padEnd(8)}${'rent'.padStart(11)}${'expected'.padStart(11)}  flag`,
  ];
  for (const d of st.days) {
    if (d.future) continue;
    lines.push(
      `${d.date.padEnd(12)}${(d.measured ? formatBytes(d.measured.bytesUsed) : 'unknown').padStart(11)}${String(d.measured?.filesCount ?? '').padStart(7)}  ${(d.measured?.outcome ?? '').padEnd(8)}${money(d.measured?.rentPaise ?? null).padStart(11)}${money(d.expectedRentPaise).padStart(11)}  ${d.flags.length ? 'FLAGGED' : ''}`,
    );
  }
  lines.push('', st.flags.length ? `Flags (${st.flags.length}):` : 'Flags: none.');
  for (const f of st.flags) lines.push(`  ${f.sentence}`);
  lines.push(st.credits.length ? 'Credits (inferred from the balances read):' : 'Credits: none seen.');
  for (const c of st.credits)
    lines.push(
      `  ${formatRupees(c.amountPaise)} ${creditWindowText(c.fromMs, c.toMs)}${c.arrearsPaidPaise ? `, ${formatRupees(c.arrearsPaidPaise)} of it paid arrears` : ''}`,
    );
  for (const u of st.unknowns) lines.push(`Unknown: ${u}`);
  lines.push('', `Where the money goes (${formatRupees(st.breakdown.totalPaise)}):`);
  for (const b of st.breakdown.byBucket)
    lines.push(
      `  ${b.label === OTHER ? b.label : `bucket ${b.label}: ${formatBytes(b.bytes)}`}, ${formatRupees(b.rentPaise)}`,
    );
  const dup = st.breakdown.duplicates;
  if (dup.extraCopies)
    lines.push(
      `  duplicates: ${dup.extraCopies} extra copies (${formatBytes(dup.bytes)}) would save ${formatRupees(dup.savingPerMonthPaise)} a month`,
    );
  return lines.join('\n');
}
