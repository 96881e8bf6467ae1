import { useEffect, useRef, useState } from 'react';
import type { FileItem } from '../../../src-shared/contract';
import { MIB } from '../../../src-shared/domain/bytes';
import { call } from '../../api/core-ref';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Icon } from '../../components/Icon';
import { ViewHeader } from '../../components/ViewHeader';
import { formatBytes } from '../../lib/format';
import { plural } from '../../lib/plural';
import { FILES_PAGE, useFiles } from '../../stores/files-store';
import { useUi } from '../../stores/ui-store';
import { ImportDialog } from './ImportDialog';
import { UploadFromUrl } from './UploadFromUrl';

const ROW_REM = 3;
const STALE_AFTER_MS = 5 * 60_000;

export function FilesView() {
  const s = useFiles();
  const [fromUrl, setFromUrl] = useState(false);
  const [importing, setImporting] = useState(false);
  const [doomed, setDoomed] = useState<FileItem | null>(null);
  const toast = useUi((st) => st.toast);

  useEffect(() => {
    // The local copy shows at once; the listing (a request per 100 files) is re-read only when stale.
    void useFiles
      .getState()
      .ensureFresh(STALE_AFTER_MS)
      .catch(() => undefined);
  }, []);

  return (
    <>
      <ViewHeader title="Files" fetchedAt={s.fetchedAt} offline={s.offline}>
        <button type="button" className="btn" onClick={() => void s.refresh()}>
          <Icon name="refresh" /> Refresh
        </button>
        <button type="button" className="btn primary" onClick={() => setFromUrl(true)} disabled={fromUrl}>
          <Icon name="link" /> Upload from URL
        </button>
        <button type="button" className="btn" onClick={() => setImporting(true)} disabled={importing}>
          <Icon name="upload" /> Import list
        </button>
      </ViewHeader>
      <div className="content stack" style={{ overflow: 'hidden', display: 'flex', flexDirection: 'column' }}>
        {fromUrl ? <UploadFromUrl onClose={() => setFromUrl(false)} /> : null}
        {importing ? <ImportDialog onClose={() => setImporting(false)} /> : null}
        <Filters />
        <div
          className="card"
          style={{ padding: 0, flex: 1, display: 'flex', flexDirection: 'column', minHeight: '16rem' }}
        >
          <div className="vhead" aria-hidden="true">
            <span>Name</span>
            <span className="hide-narrow">Bucket</span>
            <span style={{ textAlign: 'right' }}>Size</span>
            <span className="hide-narrow">Uploaded (IST)</span>
            <span />
          </div>
          <VirtualList onDelete={setDoomed} />
          <div
            className="small muted"
            style={{ padding: '0.5rem 0.75rem', borderTop: '1px solid var(--border)' }}
            data-testid="files-total"
          >
            {plural(s.total, 'file')}
          </div>
        </div>
      </div>
      <ConfirmDialog
        open={doomed !== null}
        title={`Delete ${doomed?.name ?? ''}?`}
        confirmLabel="Delete file"
        danger
        onCancel={() => setDoomed(null)}
        onConfirm={async () => {
          const f = doomed;
          setDoomed(null);
          if (!f) return;
          const r = await call('files.delete', { id: f.id });
          if (r.ok) toast('info', `${f.name} deleted; its link stops working now.`);
          else toast('error', r.error.message);
        }}
      >
        <strong>{doomed?.name}</strong> in bucket <strong>{doomed?.bucket}</strong> stops being served at
        once, and anyone using its link gets an error. This cannot be undone.
      </ConfirmDialog>
    </>
  );
}

function Filters() {
  const { filters, buckets, setFilters } = useFiles();
  const [search, setSearch] = useState(filters.search ?? '');
  useEffect(() => {
    const t = setTimeout(() => setFilters({ search }), 200);
    return () => clearTimeout(t);
  }, [search, setFilters]);
  const mib = (v: string) => (v === '' ? undefined : Math.round(Number(v) * MIB));
  return (
    <search className="filters" aria-label="Filter files">
      <label className="field">
        Name contains
        <input
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder="invoice, logo…"
        />
      </label>
      <label className="field">
        Bucket
        <select
          value={filters.bucket ?? ''}
          onChange={(e) => setFilters({ bucket: e.target.value || undefined })}
        >
          <option value="">All buckets</option>
          {buckets.map((b) => (
            <option key={b} value={b}>
              {b}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        Min size (MiB)
        <input
          type="number"
          min="0"
          step="any"
          onChange={(e) => setFilters({ minBytes: mib(e.target.value) })}
        />
      </label>
      <label className="field">
        Max size (MiB)
        <input
          type="number"
          min="0"
          step="any"
          onChange={(e) => setFilters({ maxBytes: mib(e.target.value) })}
        />
      </label>
      <fieldset className="field date-range">
        <legend>Uploaded between (IST)</legend>
        <div className="row">
          <input
            type="date"
            aria-label="From"
            max={filters.to}
            onChange={(e) => setFilters({ from: e.target.value || undefined })}
          />
          <span className="muted" aria-hidden="true">
            –
          </span>
          <input
            type="date"
            aria-label="To"
            min={filters.from}
            onChange={(e) => setFilters({ to: e.target.value || undefined })}
          />
        </div>
      </fieldset>
    </search>
  );
}

/** Only the rows in view exist in the DOM; pages of 100 are fetched from the core's local copy as they scroll in. */
function VirtualList({ onDelete }: { onDelete(f: FileItem): void }) {
  const { total, pages, ensurePage } = useFiles();
  const box = useRef<HTMLElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);
  const rowPx = ROW_REM * Number.parseFloat(getComputedStyle(document.documentElement).fontSize || '16');

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setHeight(el.clientHeight));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const first = Math.max(0, Math.floor(scrollTop / rowPx) - 5);
  const last = Math.min(total, Math.ceil((scrollTop + height) / rowPx) + 5);
  useEffect(() => {
    for (let p = Math.floor(first / FILES_PAGE); p <= Math.floor(Math.max(first, last - 1) / FILES_PAGE); p++)
      void ensurePage(p);
  }, [first, last, ensurePage]);

  const rows = [];
  for (let i = first; i < last; i++) {
    const f = pages[Math.floor(i / FILES_PAGE)]?.[i % FILES_PAGE];
    rows.push(
      <div
        key={f ? f.id : `p${i}`}
        className="vrow"
        style={{ top: i * rowPx, height: rowPx }}
        data-testid={f ? 'file-row' : undefined}
      >
        {f ? <FileRow file={f} onDelete={onDelete} /> : <span className="muted small">Loading…</span>}
      </div>,
    );
  }
  return (
    <section
      ref={box}
      className="vlist"
      style={{ flex: 1 }}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      aria-label="Files"
    >
      {total === 0 ? <div className="empty">No files match.</div> : null}
      <div style={{ height: total * rowPx }}>{rows}</div>
    </section>
  );
}

function FileRow({ file, onDelete }: { file: FileItem; onDelete(f: FileItem): void }) {
  const toast = useUi((s) => s.toast);
  return (
    <>
      <span className="name" title={file.name}>
        <a
          href={file.url}
          target="_blank"
          rel="noopener noreferrer"
          data-testid="file-url"
          style={{ color: 'inherit', textDecoration: 'none' }}
        >
          {file.name}
        </a>
      </span>
      <span className="muted small hide-narrow">{file.bucket}</span>
      <span className="num small" style={{ textAlign: 'right' }}>
        {formatBytes(file.size_bytes)}
      </span>
      {file.created_at !== null ? (
        <span className="muted small num hide-narrow">{file.created_at}</span>
      ) : (
        <span
          className="muted small hide-narrow"
          title="Live; the service gives its upload date with the next refresh of the listing."
        >
          not listed yet
        </span>
      )}
      <span className="row" style={{ gap: '0.15rem', flexWrap: 'nowrap' }}>
        <button
          type="button"
          className="btn small ghost"
          aria-label={`Copy the link of ${file.name}`}
          title="Copy link"
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(file.url);
              toast('info', 'Link copied.');
            } catch {
              toast(
                'error',
                'The clipboard refused the link; open the file and copy it from the address bar.',
              );
            }
          }}
        >
          <span style={{ width: '1rem', display: 'inline-flex' }}>
            <Icon name="copy" />
          </span>
        </button>
        <button
          type="button"
          className="btn small ghost"
          aria-label={`Open ${file.name}`}
          title="Open"
          onClick={() => window.open(file.url, '_blank', 'noopener,noreferrer')}
        >
          <span style={{ width: '1rem', display: 'inline-flex' }}>
            <Icon name="open" />
          </span>
        </button>
        <button
          type="button"
          className="btn small ghost danger"
          aria-label={`Delete ${file.name}`}
          title="Delete"
          onClick={() => onDelete(file)}
        >
          <span style={{ width: '1rem', display: 'inline-flex' }}>
            <Icon name="trash" />
          </span>
        </button>
      </span>
    </>
  );
}
