import { Fragment, type ReactNode } from 'react';
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
  /** The column's share of the table (e.g. '45%'); the others take what is left. */
  width?: string;
  cell(row: R): ReactNode;
}

/**
 * A URL that may break only after a '/', '?', '&' or '#' (a `<wbr>` there), never inside a name: a
 * long one wraps at its path's joints, and the column it sits in is as wide as its longest part.
 */
export function UrlText({ url }: { url: string }) {
  const parts = url.split(/(?<=[/?&#])/);
  return (
    <>
      {parts.map((p, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one string, in their order
        <Fragment key={i}>
          {p}
          {i < parts.length - 1 ? <wbr /> : null}
        </Fragment>
      ))}
    </>
  );
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
              <th className="import-line">Line</th>
              {columns.map((c) => (
                <th key={c.head} style={c.width ? { width: c.width } : undefined}>
                  {c.head}
                </th>
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
 * is a failure, said as "Failed" (the row's message says why). The error code is for programs and
 * for a person who asks: it is the badge's tooltip and its `data-code`, and in the results file.
 */
export function stateBadge(
  status: string,
  known: Record<string, readonly ['ok' | 'warn', string]>,
  code: string | null,
): ReactNode {
  const [tone, word] = known[status] ?? ['danger', 'Failed'];
  return (
    <span className={`badge ${tone}`} title={code ?? undefined} data-code={code ?? undefined}>
      {word}
    </span>
  );
}
