import type { ReactNode } from 'react';
import { Icon } from '../../components/Icon';

/** Rows shown at once: a 10,000-line list keeps the dialog light; the downloaded file has them all. */
export const SHOWN = 300;

/** Offers the results file as a download (a Blob link works in the browser shell and in Electron). */
function download(name: string, csv: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `${name.replace(/[^A-Za-z0-9._-]+/g, '_')}.results.csv`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export interface ResultColumn<R> {
  head: string;
  className?: string;
  cell(row: R): ReactNode;
}

interface Props<R extends { line: number }> {
  /** The table's accessible name, e.g. "Import results". */
  label: string;
  /** The list's name: the downloaded file is named after it. */
  name: string;
  summary: ReactNode;
  csv: string;
  /** Shown between the summary and the table (a warning about the run as a whole). */
  notice?: ReactNode;
  /** The columns after the line number, which every list's results start with. */
  columns: ResultColumn<R>[];
  rows: R[];
}

/**
 * The outcome of one run of a list (an import or an id check): a one-line summary, the results file
 * to download, and a line each for the first rows. Each row carries its list line as `data-line`.
 */
export function ListResults<R extends { line: number }>({
  label,
  name,
  summary,
  csv,
  notice,
  columns,
  rows,
}: Props<R>) {
  return (
    <div className="stack">
      <div className="row" role="status">
        <span>{summary}</span>
        <span className="spacer" />
        <button type="button" className="btn small" onClick={() => download(name, csv)}>
          <Icon name="open" /> Download results
        </button>
      </div>
      {notice}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling area takes focus so a keyboard can scroll it (WCAG 2.1.1) */}
      <section className="import-table" tabIndex={0} aria-label={label}>
        <table className="table" aria-label={label}>
          <thead>
            <tr>
              <th>Line</th>
              {columns.map((c) => (
                <th key={c.head}>{c.head}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.slice(0, SHOWN).map((r) => (
              <tr key={r.line} data-line={r.line}>
                <td className="num">{r.line}</td>
                {columns.map((c) => (
                  <td key={c.head} className={c.className}>
                    {c.cell(r)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}

/**
 * A result's state as a badge: the states named in `known` carry their own tone and word; any other
 * is a failure, shown by its error code.
 */
export function stateBadge(
  status: string,
  known: Record<string, readonly ['ok' | 'warn', string]>,
  code: ReactNode,
): ReactNode {
  const [tone, word] = known[status] ?? ['danger', code];
  return <span className={`badge ${tone}`}>{word}</span>;
}
