/** One line of the benchmark table: a figure measured against a baseline measured in the same run. */
export interface Row {
  figure: string;
  measured: string;
  baseline: string;
  /** measured / baseline in the direction the target states (e.g. "x curl's time"). */
  ratio: string;
  target: string;
  pass: boolean;
  /** Not measured here (the reason is in `measured`): shown as SKIP, and fails nothing. */
  skipped?: boolean;
  /** The 1-minute load average while it was measured (printReport stamps the time of printing otherwise). */
  load?: number;
  /** How far it moved from the last recorded table (recorded.ts): "+31% !!". */
  vsRecorded?: string;
}

export const fmtS = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
export const fmtMb = (mb: number) => `${mb.toFixed(0)} MB`;

/**
 * A plain-text table, one row per figure, with PASS / FAIL, then (when the rows have them) the load
 * average it was measured at and its move from the last record.
 */
export function renderTable(rows: readonly Row[]): string {
  const extra = rows.some((r) => r.load !== undefined || r.vsRecorded !== undefined);
  const head = [
    'figure',
    'measured',
    'baseline',
    'ratio',
    'target',
    'result',
    ...(extra ? ['load', 'vs recorded'] : []),
  ];
  const cells = rows.map((r) => [
    r.figure,
    r.measured,
    r.baseline,
    r.ratio,
    r.target,
    r.skipped ? 'SKIP' : r.pass ? 'PASS' : 'FAIL',
    ...(extra ? [r.load === undefined ? '-' : r.load.toFixed(2), r.vsRecorded ?? '-'] : []),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) =>
    c
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}
