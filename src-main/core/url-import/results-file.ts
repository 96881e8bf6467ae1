import { appendFileSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { csvLine, parseCsvLine } from '../../../src-shared/domain/csv';

/** A results file is the list's own name with `.results.csv` after it, next to it. */
export const resultsPathFor = (listPath: string): string => `${listPath}.results.csv`;

/**
 * A results file being written: rows are appended as they come to `<results>.partial` (a crash
 * loses none), and `finish` writes the final file in line order (temp file, then rename) and
 * removes the partial one.
 */
export function resultsWriter<Row>(
  resultsPath: string,
  columns: readonly string[],
  cells: (row: Row) => (string | number | null)[],
) {
  const partial = `${resultsPath}.partial`;
  const line = (row: Row) =>
    // A message may hold line breaks (a server's text): a results row stays one line.
    csvLine(
      cells(row).map((c) => (c === null ? '' : typeof c === 'number' ? c : c.replace(/[\r\n]+/g, ' '))),
    );
  return {
    /** Starts the partial file with rows already known (a run before that succeeded). */
    begin(known: readonly Row[]): void {
      const tmp = `${partial}.tmp`;
      writeFileSync(tmp, csvLine(columns) + known.map(line).join(''));
      renameSync(tmp, partial);
    },
    append(row: Row): void {
      appendFileSync(partial, line(row));
    },
    finish(rows: readonly Row[]): void {
      const tmp = `${resultsPath}.tmp`;
      writeFileSync(tmp, csvLine(columns) + rows.map(line).join(''));
      renameSync(tmp, resultsPath);
      rmSync(partial, { force: true });
    },
  };
}

/** The rows of a results file (and of its partial one, left by a run that stopped), as records. */
export function readResults(resultsPath: string): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  for (const path of [resultsPath, `${resultsPath}.partial`]) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      continue;
    }
    const lines = text.split(/\r\n|\n/).filter((l) => l !== '');
    const header = lines.length ? parseCsvLine(lines[0]!) : null;
    if (!header) continue;
    for (const l of lines.slice(1)) {
      const cells = parseCsvLine(l);
      if (!cells) continue;
      out.push(Object.fromEntries(header.map((h, i) => [h, cells[i] ?? ''])));
    }
  }
  return out;
}
