import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { REPO } from './processes';
import { type Row, renderTable } from './table';

/**
 * The last table each benchmark recorded in docs/benchmarks.md, and how far this run moved from it.
 * A figure that moves by more than MOVE either way is printed with a mark, so that a person looks at
 * it: a figure that got much better for no reason a person knows is as suspect as one that got worse
 * (the upload figure that went from 1.66x to 0.61x because its second run had stopped uploading).
 *
 * The record is a Markdown table between two comments, which `BENCH_RECORD=1` prints ready to paste:
 *
 *     <!-- recorded bench:sync: 2025-01-31, quiet machine -->
 *     | figure | measured | baseline | ratio | target | result | load |
 *     |---|---|---|---|---|---|---|
 *     | md5 of 1 GiB: hasher throughput | 1.54 s | md5sum 1.58 s | 1.03x md5sum's | >= 0.90x | PASS | 0.12 |
 *     <!-- end recorded -->
 *
 * Any benchmark prints its table through `printReport` to get this (bench:office and bench:relay too).
 */

export const MOVE = 0.25;
export const MARK = '!!';
export const DOCS = join(REPO, 'docs', 'benchmarks.md');

export interface Recorded {
  /** What the opening comment says after the name: the date and the machine. */
  note: string;
  /** Each figure's key number (keyNumber) by its name. */
  values: Map<string, number>;
}

const cellsOf = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replace(/\\\|/g, '|'));

/** The table `bench` last recorded in `markdown`, or null when there is none. */
export function parseRecorded(markdown: string, bench: string): Recorded | null {
  const lines = markdown.split('\n');
  // The last one: a page may keep older records above the current one.
  let start = -1;
  lines.forEach((l, i) => {
    if (l.trim().startsWith(`<!-- recorded ${bench}:`) || l.trim() === `<!-- recorded ${bench} -->`)
      start = i;
  });
  if (start < 0) return null;
  const note = lines[start]!.trim()
    .replace(`<!-- recorded ${bench}`, '')
    .replace(/^:\s*/, '')
    .replace(/\s*-->$/, '');
  const head = cellsOf(lines[start + 1] ?? '');
  const at = (name: string) => head.indexOf(name);
  const values = new Map<string, number>();
  for (const line of lines.slice(start + 3)) {
    if (!line.trim().startsWith('|')) break;
    const c = cellsOf(line);
    const v = keyNumber({ ratio: c[at('ratio')] ?? '-', measured: c[at('measured')] ?? '-' });
    if (v !== null) values.set(c[at('figure')]!, v);
  }
  return { note, values };
}

/**
 * The number a figure is judged by: its ratio when it has one ("1.03x md5sum's", "1.0005"), else
 * the first number it measured ("159 MB", "0 received"). Null for an error or a skipped row.
 */
export function keyNumber(row: Pick<Row, 'ratio' | 'measured'>): number | null {
  for (const text of [row.ratio, row.measured]) {
    if (/^(error|skipped)/.test(text)) return null;
    const m = /-?\d[\d,]*(\.\d+)?/.exec(text);
    if (m) return Number(m[0].replace(/,/g, ''));
  }
  return null;
}

/** "+31% !!", "-4%", "new": how far `now` is from `then`; the mark past MOVE either way. */
export function moveText(now: number | null, then: number | undefined): string {
  if (now === null) return '-';
  if (then === undefined) return 'new';
  const change = then === 0 ? (now === 0 ? 0 : Number.POSITIVE_INFINITY) : (now - then) / Math.abs(then);
  const pct = Number.isFinite(change)
    ? `${change >= 0 ? '+' : ''}${Math.round(change * 100)}%`
    : `was ${then}`;
  return Math.abs(change) > MOVE ? `${pct} ${MARK}` : pct;
}

/** Each row with its move from the record (and this run's load where the row has none). */
export function compareWithRecorded(rows: readonly Row[], recorded: Recorded | null): Row[] {
  return rows.map((r) => ({
    ...r,
    load: r.load ?? loadavg()[0]!,
    vsRecorded: recorded ? moveText(keyNumber(r), recorded.values.get(r.figure)) : 'no record',
  }));
}

/** The rows as a record to paste into docs/benchmarks.md (BENCH_RECORD=1). */
export function recordMarkdown(bench: string, rows: readonly Row[], note: string): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const body = rows.map(
    (r) =>
      `| ${[r.figure, r.measured, r.baseline, r.ratio, r.target, r.skipped ? 'SKIP' : r.pass ? 'PASS' : 'FAIL', (r.load ?? loadavg()[0]!).toFixed(2)].map(esc).join(' | ')} |`,
  );
  return [
    `<!-- recorded ${bench}: ${note} -->`,
    '| figure | measured | baseline | ratio | target | result | load |',
    '|---|---|---|---|---|---|---|',
    ...body,
    '<!-- end recorded -->',
  ].join('\n');
}

/**
 * Prints a benchmark's table: its title with the load average, each row with the load when it was
 * measured and its move from the last record in docs/benchmarks.md (marked past 25%), a legend, and
 * with BENCH_RECORD=1 the record to paste. Returns the rows as printed.
 */
export function printReport(bench: string, title: string, rows: readonly Row[], docs = DOCS): Row[] {
  let text = '';
  try {
    text = readFileSync(docs, 'utf8');
  } catch {
    // no docs here: every row is "no record"
  }
  const recorded = parseRecorded(text, bench);
  const shown = compareWithRecorded(rows, recorded);
  const [one, five] = loadavg();
  console.log(`${title} (load average ${one!.toFixed(2)}, ${five!.toFixed(2)} over 5 min)`);
  console.log(renderTable(shown));
  const marked = shown.filter((r) => r.vsRecorded?.endsWith(MARK)).length;
  console.log(
    recorded
      ? `vs recorded: against docs/benchmarks.md, ${bench} (${recorded.note}); ${MARK} = moved more than ${MOVE * 100}% either way (${marked} row${marked === 1 ? '' : 's'}): look at it.`
      : `vs recorded: docs/benchmarks.md has no record of ${bench} yet (BENCH_RECORD=1 prints one).`,
  );
  if (process.env.BENCH_RECORD === '1') {
    const date = new Date().toISOString().slice(0, 10);
    console.log(`\n${recordMarkdown(bench, shown, `${date}, load ${one!.toFixed(2)}`)}`);
  }
  return shown;
}
