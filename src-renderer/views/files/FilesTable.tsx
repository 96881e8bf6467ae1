import { memo, useCallback, useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { IndexedFile, IndexSort } from '../../../src-shared/contract';
import { formatServiceTimeBare } from '../../../src-shared/domain/time-format';
import { Icon } from '../../components/Icon';
import { formatBytes } from '../../lib/format';
import { RenderCount } from '../../lib/render-count';
import { INDEX_PAGE, type IndexViewStore, isPicked, rowIn, useIndexView } from './index-store';

const ROW_REM = 2.5;
/** Rows drawn beyond the visible ones on each side, so a fast wheel does not show blanks. */
const OVERSCAN = 8;
/** Never more rows than this in the DOM, whatever height a layout gives the box. */
const MAX_ROWS = 250;

/** The rows to draw, [first, last): those in view plus OVERSCAN each side, never past the last row. */
function rowWindow(m: { top: number; height: number; rowPx: number; total: number }): [number, number] {
  const first = Math.max(0, Math.floor(m.top / m.rowPx) - OVERSCAN);
  const last = Math.min(m.total, Math.ceil((m.top + m.height) / m.rowPx) + OVERSCAN, first + MAX_ROWS);
  return [first, Math.max(first, last)];
}

const COLUMNS: { sort: IndexSort; label: string; className: string }[] = [
  { sort: 'name', label: 'Name', className: 'c-name' },
  { sort: 'bucket', label: 'Bucket', className: 'c-bucket' },
  { sort: 'size', label: 'Size', className: 'c-size' },
  { sort: 'date', label: 'Uploaded (IST)', className: 'c-date' },
];

/**
 * What the table draws, and nothing else: a delete job's progress, the byte total, the buckets, an
 * error or the previewed file change without it (a bulk delete's progress re-drew every row). The
 * status counts only as "still reading an empty listing", for the empty message.
 */
const tableSlice = (s: IndexViewStore) => ({
  filter: s.filter,
  sort: s.sort,
  order: s.order,
  total: s.total,
  pages: s.pages,
  generation: s.generation,
  picked: s.picked,
  readingFirstListing: s.status !== null && !s.status.complete && s.status.count === 0,
  ensurePage: s.ensurePage,
  click: s.click,
  sortBy: s.sortBy,
});

/**
 * The index as a table with windowing written here (no library): the scroll box holds one spacer as
 * tall as every row, and only the rows in view (plus a few) exist, each placed at its offset; pages
 * of 100 are asked of the core as they come into view. The header is a sticky row of the same grid
 * inside the same scroll box, so each title stands over its column whatever the scroll bar takes.
 */
export const FilesTable = memo(function FilesTable({ onDelete }: { onDelete(f: IndexedFile): void }) {
  const s = useIndexView(useShallow(tableSlice));
  const box = useRef<HTMLElement>(null);
  const rowPx = ROW_REM * Number.parseFloat(getComputedStyle(document.documentElement).fontSize || '16');
  // The scroll box's offset and height as last measured; the window of rows drawn is state, set only
  // when it changes, so a scroll within a row or a box a few pixels taller (a toolbar wrapping) does
  // not re-draw the rows.
  const seen = useRef({ top: 0, height: 400, rowPx, total: s.total });
  seen.current.rowPx = rowPx;
  seen.current.total = s.total;
  const [[first, last], setWindow] = useState(() => rowWindow(seen.current));
  const measure = useCallback(() => {
    const el = box.current;
    if (el) Object.assign(seen.current, { top: el.scrollTop, height: el.clientHeight });
    const next = rowWindow(seen.current);
    setWindow((prev) => (prev[0] === next[0] && prev[1] === next[1] ? prev : next));
  }, []);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [measure]);
  // More or fewer rows: the window ends at the last one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the total is the trigger (read through seen)
  useEffect(measure, [s.total, rowPx, measure]);

  // A new filter or sort starts at the top.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the filter and sort are the trigger
  useEffect(() => {
    if (box.current) box.current.scrollTop = 0;
    measure();
  }, [s.filter, s.sort, s.order]);

  const { ensurePage, generation } = s;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new generation needs its pages again
  useEffect(() => {
    for (let p = Math.floor(first / INDEX_PAGE); p <= Math.floor(Math.max(first, last - 1) / INDEX_PAGE); p++)
      void ensurePage(p);
  }, [first, last, ensurePage, generation]);

  const rows = [];
  for (let i = first; i < last; i++) {
    const f = rowIn(s.pages, i);
    const picked = f ? isPicked(s.picked, f.id) : false;
    rows.push(
      // biome-ignore lint/a11y/useKeyWithClickEvents: the row's checkbox is the keyboard's way to select; a click on the row is the mouse's shortcut
      <div
        key={f ? f.id : `p${i}`}
        role="row"
        aria-rowindex={i + 2}
        className={`frow${picked ? ' picked' : ''}`}
        style={{ top: i * rowPx, height: rowPx }}
        data-picked={picked || undefined}
        data-testid={f ? 'file-row' : undefined}
        onClick={(e) => {
          if ((e.target as HTMLElement).closest('button, a, input')) return;
          void s.click(i, { shift: e.shiftKey, toggle: e.ctrlKey || e.metaKey });
        }}
      >
        {f ? (
          <FileCells file={f} index={i} picked={picked} onDelete={onDelete} />
        ) : (
          <span role="cell" className="muted small c-name">
            Loading…
          </span>
        )}
      </div>,
    );
  }

  return (
    <RenderCount id="files-table">
      {/* A table to assistive technology (issue 34: its sort is told by aria-sort), drawn as a window of
          rows: aria-rowcount and each row's aria-rowindex say where the rows shown stand in the whole.
          ARIA roles on divs, not <table> elements: the rows are placed absolutely, one window at a time,
          which table layout does not allow (biome.json lets this file say so). */}
      <section
        ref={box}
        className="ftable"
        role="table"
        aria-label="Files"
        aria-rowcount={s.total + 1}
        onScroll={measure}
      >
        <div className="fhead" role="row" aria-rowindex={1}>
          <span className="c-check" role="columnheader">
            <span className="sr-only">Selected</span>
          </span>
          {COLUMNS.map((c) => {
            const active = s.sort === c.sort;
            const order = s.order === 'asc' ? 'ascending' : 'descending';
            return (
              <span
                key={c.sort}
                className={c.className}
                role="columnheader"
                aria-sort={active ? order : 'none'}
              >
                <button
                  type="button"
                  className="sort"
                  onClick={() => s.sortBy(c.sort)}
                  aria-label={active ? `${c.label}, sorted ${order}` : `Sort by ${c.label}`}
                >
                  {c.label}
                  <span aria-hidden="true" className="arrow">
                    {active ? (s.order === 'asc' ? '▲' : '▼') : ''}
                  </span>
                </button>
              </span>
            );
          })}
          <span className="c-actions" role="columnheader">
            <span className="sr-only">Actions</span>
          </span>
        </div>
        {s.total === 0 ? (
          <div className="empty" role="row" data-testid="files-empty">
            <span role="cell">
              {s.readingFirstListing
                ? 'Reading the account’s files from the service…'
                : Object.keys(s.filter).some((k) => (s.filter as Record<string, unknown>)[k])
                  ? 'No files match this filter.'
                  : 'No files on this account yet. Files synced from a folder or uploaded from a URL show here.'}
            </span>
          </div>
        ) : null}
        <div className="fbody" role="rowgroup" style={{ height: s.total * rowPx }}>
          {rows}
        </div>
      </section>
    </RenderCount>
  );
});

function FileCells(props: {
  file: IndexedFile;
  index: number;
  picked: boolean;
  onDelete(f: IndexedFile): void;
}) {
  const { file, index, picked } = props;
  const click = useIndexView((s) => s.click);
  return (
    <>
      <span className="c-check" role="cell">
        <input
          type="checkbox"
          checked={picked}
          aria-label={`Select ${file.name}`}
          onChange={() => undefined}
          onClick={(e) => {
            e.stopPropagation();
            void click(index, { shift: e.shiftKey, toggle: true });
          }}
        />
      </span>
      <span className="c-name" role="cell" title={file.name}>
        {file.name}
      </span>
      <span className="c-bucket muted small" role="cell">
        {file.bucket}
      </span>
      <span className="c-size num small" role="cell">
        {formatBytes(file.size)}
      </span>
      {/* The one format ("28 Nov 2026, 09:45"), the column's heading saying IST once. */}
      <span className="c-date muted small num" role="cell">
        {formatServiceTimeBare(file.createdAt)}
      </span>
      <span className="c-actions" role="cell">
        <a
          className="btn small ghost"
          href={file.url}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={`Open ${file.name}`}
          title="Open"
          data-testid="file-url"
        >
          <span className="ficon">
            <Icon name="open" />
          </span>
        </a>
        <button
          type="button"
          className="btn small ghost danger"
          aria-label={`Delete ${file.name}`}
          title="Delete"
          onClick={() => props.onDelete(file)}
        >
          <span className="ficon">
            <Icon name="trash" />
          </span>
        </button>
      </span>
    </>
  );
}
