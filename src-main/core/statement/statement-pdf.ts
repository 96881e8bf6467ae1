import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import type { Share, Statement } from '../../../src-shared/contract/statement';
import { formatBytes } from '../../../src-shared/domain/bytes';
import { formatRupees } from '../../../src-shared/domain/money';
import { creditWindowText } from '../../../src-shared/domain/statement/month-statement';
import { formatIstTime, formatServiceMonth } from '../../../src-shared/domain/time-format';

/**
 * The statement as a PDF an accountant can file (issue 35): drawn as text with pdf-lib's standard
 * fonts (no font file to ship, pure JavaScript, bundles with the CLI). Those fonts carry WinAnsi only,
 * so the rupee sign is written "Rs" and any other character outside it becomes "?".
 */
export async function statementPdf(s: Statement): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Statement ${s.month}${s.account.name ? ` - ${s.account.name}` : ''}`);
  doc.setCreator('Assets Sync');
  doc.setProducer('Assets Sync (pdf-lib)');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const w = new Writer(doc, font, bold);

  w.title(`Statement of account, ${formatServiceMonth(s.month)}`);
  w.line(
    `Account: ${s.account.name || '(name not read)'} (client ${s.account.clientId}) at ${s.account.service}`,
  );
  w.line(
    `Month: ${s.month}, IST days by the service's clock${s.complete ? '' : ' (not over yet: figures so far)'}`,
  );
  w.line(`Made: ${formatIstTime(s.builtAtMs)} (service clock)`);
  w.gap();
  w.heading('Totals (wallet position = balance - arrears)');
  w.pairs([
    ['Opening', money(s.openingPaise)],
    ['Credits to the wallet (inferred)', rupees(s.creditsPaise)],
    ['Rent charged', rupees(s.rentPaise)],
    ['Closing', money(s.closingPaise)],
    ['Arrears booked', rupees(s.arrearsBookedPaise)],
    ['Arrears paid', rupees(s.arrearsPaidPaise)],
  ]);
  w.line(
    s.balances
      ? `Opening + credits - rent = closing: ${money(s.openingPaise)} + ${rupees(s.creditsPaise)} - ${rupees(s.rentPaise)} = ${money(s.closingPaise)}.`
      : 'Opening + credits - rent = closing cannot be checked: a figure is unknown (below).',
  );
  w.gap();
  w.heading('The rule found');
  w.para(s.rule.sentence);
  if (s.rule.alsoFit.length)
    w.para(`Also fitting every day seen (not told apart yet): ${s.rule.alsoFit.join(', ')}.`);
  w.gap();
  w.heading(`Flags (${s.flags.length})`);
  if (!s.flags.length) w.line('None: every day charged fits the rule and the bytes the app held.');
  for (const f of s.flags) w.para(`! ${f.sentence}`);
  w.gap();
  w.heading(`Credits (${s.credits.length}, inferred from the balances read)`);
  if (!s.credits.length) w.line('None seen.');
  for (const c of s.credits)
    w.line(
      `${rupees(c.amountPaise)} ${creditWindowText(c.fromMs, c.toMs)}${c.arrearsPaidPaise ? `, of which ${rupees(c.arrearsPaidPaise)} paid arrears` : ''}`,
    );
  if (s.unknowns.length) {
    w.gap();
    w.heading('Unknown');
    for (const u of s.unknowns) w.para(u);
  }
  w.gap();
  w.heading('Days');
  const cols = [0, 70, 150, 195, 265, 335, 405];
  w.row(cols, ['Date', 'Measured', 'Files', 'Outcome', 'Rent', 'Expected', 'Arrears'], true);
  for (const d of s.days) {
    if (d.future) continue;
    w.row(cols, [
      d.date,
      d.measured ? formatBytes(d.measured.bytesUsed) : 'unknown',
      d.measured ? String(d.measured.filesCount) : '',
      d.measured?.outcome ?? '',
      d.measured ? rupees(d.measured.rentPaise) : 'unknown',
      d.expectedRentPaise === null ? 'unknown' : rupees(d.expectedRentPaise),
      d.arrearsBookedPaise ? rupees(d.arrearsBookedPaise) : '',
    ]);
    if (d.flags.length) w.row(cols, ['', `flagged: ${d.flags.map((f) => f.kind).join(', ')}`], false, true);
  }
  w.gap();
  w.heading(`Where the money goes (${rupees(s.breakdown.totalPaise)})`);
  const shares = (name: string, list: Share[]) => {
    w.sub(name);
    for (const x of list.slice(0, 12))
      w.row([0, 300, 400], [x.label, formatBytes(x.bytes), rupees(x.rentPaise)]);
  };
  shares('By bucket', s.breakdown.byBucket);
  shares('By watched folder', s.breakdown.byFolder);
  shares('By file type', s.breakdown.byType);
  shares('Largest files', s.breakdown.largest);
  const dup = s.breakdown.duplicates;
  w.line(
    dup.extraCopies
      ? `Duplicates: ${dup.extraCopies} extra cop${dup.extraCopies === 1 ? 'y' : 'ies'} (${formatBytes(dup.bytes)}); removing them saves ${rupees(dup.savingPerMonthPaise)} a month.`
      : 'Duplicates: none.',
  );
  return doc.save();
}

const rupees = (p: number) => formatRupees(p).replaceAll('₹', 'Rs ');
const money = (p: number | null) => (p === null ? 'unknown' : rupees(p));
/** WinAnsi has no rupee sign and no characters outside Latin-1's printable ones. */
const winAnsi = (t: string) => t.replaceAll('₹', 'Rs ').replace(/[^\x20-\x7e\xa0-\xff]/g, '?');

class Writer {
  private page: PDFPage;
  private y = 0;
  private readonly left = 50;
  private readonly width = 495;
  constructor(
    private readonly doc: PDFDocument,
    private readonly font: PDFFont,
    private readonly bold: PDFFont,
  ) {
    this.page = this.newPage();
  }
  private newPage(): PDFPage {
    this.page = this.doc.addPage([595.28, 841.89]);
    this.y = 841.89 - 50;
    return this.page;
  }
  private room(h: number) {
    if (this.y - h < 50) this.newPage();
  }
  private text(t: string, x: number, size: number, f = this.font, grey = false) {
    this.page.drawText(winAnsi(t), {
      x,
      y: this.y,
      size,
      font: f,
      color: grey ? rgb(0.45, 0.1, 0.1) : rgb(0, 0, 0),
    });
  }
  title(t: string) {
    this.room(24);
    this.text(t, this.left, 16, this.bold);
    this.y -= 24;
  }
  heading(t: string) {
    this.room(18);
    this.text(t, this.left, 11.5, this.bold);
    this.y -= 16;
  }
  sub(t: string) {
    this.room(14);
    this.text(t, this.left, 9.5, this.bold);
    this.y -= 13;
  }
  line(t: string) {
    this.para(t);
  }
  /** Words wrapped to the page's width. */
  para(t: string) {
    const words = winAnsi(t).split(' ');
    let cur = '';
    const flush = () => {
      this.room(13);
      this.text(cur, this.left, 9.5);
      this.y -= 13;
    };
    for (const word of words) {
      const next = cur ? `${cur} ${word}` : word;
      if (this.font.widthOfTextAtSize(next, 9.5) > this.width && cur) {
        flush();
        cur = word;
      } else cur = next;
    }
    if (cur) flush();
  }
  pairs(list: [string, string][]) {
    for (const [k, v] of list) {
      this.room(13);
      this.text(k, this.left, 9.5);
      const vw = this.font.widthOfTextAtSize(winAnsi(v), 9.5);
      this.text(v, this.left + 300 - vw, 9.5, this.bold);
      this.y -= 13;
    }
  }
  row(cols: number[], cells: string[], header = false, flag = false) {
    this.room(12);
    for (const [i, c] of cells.entries())
      this.text(c, this.left + (cols[i] ?? 0), 8.5, header ? this.bold : this.font, flag);
    this.y -= 12;
  }
  gap() {
    this.y -= 6;
  }
}
