import { useCallback, useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { BulkDeleteJob, IndexedFile, Selection } from '../../../src-shared/contract';
import { call } from '../../api/core-ref';
import { Icon } from '../../components/Icon';
import { SCROLL_REGION, ViewHeader } from '../../components/ViewHeader';
import { formatBytes } from '../../lib/format';
import { plural } from '../../lib/plural';
import { useUi } from '../../stores/ui-store';
import { BulkDeleteDialog } from './BulkDeleteDialog';
import { FilesTable } from './FilesTable';
import { ImportDialog } from './ImportDialog';
import { cleanFilter, type IndexViewStore, pickedCount, selectionOf, useIndexView } from './index-store';
import { Preview } from './Preview';
import { saveText } from './save-file';
import { UploadFromUrl } from './UploadFromUrl';
import './files.css';

/**
 * Every live file of the account, from the local remote index (docs/remote-index.md): search,
 * filters and sorting over 100,000 files without a request; select many and delete, copy their
 * links or export them; a preview of the one clicked.
 */
// Each part of the view subscribes to the fields it draws (small named selectors); the table to its
// own (FilesTable's tableSlice), so a delete's progress or the preview closing leaves its rows alone.
const refreshedAt = (s: IndexViewStore) => s.status?.refreshedAt ?? null;
const readError = (s: IndexViewStore) => s.error;
const deleteJob = (s: IndexViewStore) => s.job;
const previewed = (s: IndexViewStore) => s.focused;
const totals = (s: IndexViewStore) => ({
  total: s.total,
  bytes: s.bytes,
  reading: s.status !== null && !s.status.complete,
});
const filterSlice = (s: IndexViewStore) => ({ filter: s.filter, buckets: s.buckets, setFilter: s.setFilter });
const selectionSlice = (s: IndexViewStore) => ({
  picked: s.picked,
  total: s.total,
  filter: s.filter,
  selectAllMatching: s.selectAllMatching,
  clearSelection: s.clearSelection,
});

export function FilesView() {
  const fetchedAt = useIndexView(refreshedAt);
  const error = useIndexView(readError);
  const job = useIndexView(deleteJob);
  const focused = useIndexView(previewed);
  const [fromUrl, setFromUrl] = useState(false);
  const [doomed, setDoomed] = useState<Selection | null>(null);
  const [doomedName, setDoomedName] = useState<string | undefined>(undefined);
  const [refreshing, setRefreshing] = useState(false);
  const [importing, setImporting] = useState(false);
  const toast = useUi((st) => st.toast);

  useEffect(() => {
    useIndexView.getState().reload();
    void call('files.bulkDelete.progress', {}).then((r) => {
      if (r.ok) useIndexView.setState({ job: r.value });
    });
  }, []);

  const refresh = async () => {
    setRefreshing(true);
    const r = await call('files.index.refresh', {});
    setRefreshing(false);
    if (!r.ok) toast('error', r.error.message);
    else if (r.value.added + r.value.removed > 0)
      toast('info', `${plural(r.value.added, 'new file')}, ${plural(r.value.removed, 'file')} gone.`);
    useIndexView.getState().reload();
  };

  // Stable, so the memoised table is not re-drawn when this view re-renders for its own state.
  const deleteOne = useCallback((f: IndexedFile) => {
    setDoomedName(f.name);
    setDoomed({ ids: [f.id] });
  }, []);

  return (
    <>
      <ViewHeader title="Files" fetchedAt={fetchedAt}>
        <button type="button" className="btn" onClick={() => void refresh()} disabled={refreshing}>
          <Icon name="refresh" /> Refresh
        </button>
        <button type="button" className="btn primary" onClick={() => setFromUrl(true)} disabled={fromUrl}>
          <Icon name="link" /> Upload from URL
        </button>
        <button type="button" className="btn" onClick={() => setImporting(true)} disabled={importing}>
          <Icon name="upload" /> Import list
        </button>
      </ViewHeader>
      <div
        className="content stack"
        {...SCROLL_REGION}
        style={{ overflowY: 'auto', display: 'flex', flexDirection: 'column' }}
      >
        {fromUrl ? <UploadFromUrl onClose={() => setFromUrl(false)} /> : null}
        {importing ? <ImportDialog onClose={() => setImporting(false)} /> : null}
        <Filters />
        {error ? (
          <div className="banner warn" role="alert">
            {error}
          </div>
        ) : null}
        <div className="files-layout">
          <div className="card files-main" style={{ padding: 0 }}>
            <JobProgress job={job} />
            <SelectionBar
              onDelete={(sel) => {
                setDoomedName(undefined);
                setDoomed(sel);
              }}
            />
            <FilesTable onDelete={deleteOne} />
            <FilesTotal />
          </div>
          {focused ? (
            <Preview
              key={focused.id}
              file={focused}
              onClose={() => useIndexView.setState({ focused: null })}
            />
          ) : null}
        </div>
      </div>
      <BulkDeleteDialog
        selection={doomed}
        name={doomedName}
        onCancel={() => setDoomed(null)}
        onConfirm={async (sel, folderFiles) => {
          setDoomed(null);
          const r = await call('files.bulkDelete.start', folderFiles ? { ...sel, folderFiles } : sel);
          if (!r.ok) return toast('error', r.error.message);
          useIndexView.setState({ job: r.value });
          useIndexView.getState().clearSelection();
        }}
      />
    </>
  );
}

function FilesTotal() {
  const { total, bytes, reading } = useIndexView(useShallow(totals));
  return (
    <div
      className="small muted"
      style={{ padding: '0.5rem 0.75rem', borderTop: '1px solid var(--border)' }}
      data-testid="files-total"
    >
      {plural(total, 'file')} · {formatBytes(bytes)}
      {reading ? ' · still reading the listing' : ''}
    </div>
  );
}

const TYPES = [
  { value: '', label: 'All types' },
  { value: 'image', label: 'Images' },
  { value: 'application/pdf', label: 'PDFs' },
  { value: 'video', label: 'Video' },
  { value: 'audio', label: 'Audio' },
  { value: 'text', label: 'Text' },
];

function Filters() {
  const { filter, buckets, setFilter } = useIndexView(useShallow(filterSlice));
  const [search, setSearch] = useState(filter.search ?? '');
  const [ext, setExt] = useState((filter.extensions ?? []).join(', '));
  useEffect(() => {
    const t = setTimeout(() => {
      if ((useIndexView.getState().filter.search ?? '') !== search) setFilter({ search });
    }, 200);
    return () => clearTimeout(t);
  }, [search, setFilter]);
  useEffect(() => {
    const t = setTimeout(() => {
      const list = ext
        .split(/[\s,]+/)
        .map((e) => e.replace(/^\./, ''))
        .filter((e) => /^[A-Za-z0-9]{1,10}$/.test(e));
      const now = useIndexView.getState().filter.extensions ?? [];
      if (list.join(',') !== now.join(',')) setFilter({ extensions: list });
    }, 300);
    return () => clearTimeout(t);
  }, [ext, setFilter]);
  return (
    <search className="files-filters" aria-label="Filter files">
      <label className="field search">
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
          value={filter.bucket ?? ''}
          onChange={(e) => setFilter({ bucket: e.target.value || undefined })}
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
        Type
        <select value={filter.type ?? ''} onChange={(e) => setFilter({ type: e.target.value || undefined })}>
          {TYPES.map((t) => (
            <option key={t.value} value={t.value}>
              {t.label}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        Extensions
        <input value={ext} onChange={(e) => setExt(e.target.value)} placeholder="pdf, png" />
      </label>
    </search>
  );
}

function SelectionBar({ onDelete }: { onDelete(s: Selection): void }) {
  const s = useIndexView(useShallow(selectionSlice));
  const toast = useUi((st) => st.toast);
  const count = pickedCount(s.picked, s.total);
  const selection = selectionOf(s.picked, s.filter);
  // With nothing picked, export is of the filter's matches: the whole view, not the rows loaded.
  const exportOf: Selection = selection ?? { filter: cleanFilter(s.filter), except: [] };
  const exportTitle = selection ? 'Export the selected files' : 'Export every file this filter matches';

  const exportAs = async (format: 'csv' | 'json') => {
    const r = await call('files.export', { selection: exportOf, format });
    if (!r.ok) return toast('error', r.error.message);
    saveText(r.value.fileName, r.value.mime, r.value.text);
    toast('info', `${plural(r.value.count, 'file')} exported to ${r.value.fileName}.`);
  };
  const copyUrls = async () => {
    if (!selection) return;
    const r = await call('files.export', { selection, format: 'urls' });
    if (!r.ok) return toast('error', r.error.message);
    try {
      await navigator.clipboard.writeText(r.value.text);
      toast('info', `${plural(r.value.count, 'link')} copied, one a line.`);
    } catch {
      toast('error', 'The clipboard refused the links; export them as CSV instead.');
    }
  };

  return (
    <div className="files-bar" role="toolbar" aria-label="Selection">
      <span className="small grow" data-testid="selection-count" aria-live="polite">
        {count > 0 ? `${plural(count, 'file')} selected` : 'Click, Shift-click or Ctrl-click rows to select'}
      </span>
      {/* The actions move as one: when they do not fit beside the count they go under it together,
          never one button alone on a line of its own (Delete… did, with the preview open). Narrower
          still (800x600, a file selected), they break between their two groups, what picks rows and
          what acts on them, each whole (Delete… again stood alone). */}
      <div className="files-actions">
        {s.total > 0 && !(s.picked.mode === 'all' && s.picked.except.size === 0) ? (
          <div className="files-group">
            <button type="button" className="btn small" onClick={() => s.selectAllMatching()}>
              Select all {s.total.toLocaleString('en')}
            </button>
            {count > 0 ? (
              <button type="button" className="btn small ghost" onClick={() => s.clearSelection()}>
                Clear
              </button>
            ) : null}
          </div>
        ) : count > 0 ? (
          <div className="files-group">
            <button type="button" className="btn small ghost" onClick={() => s.clearSelection()}>
              Clear
            </button>
          </div>
        ) : null}
        <div className="files-group">
          {count > 0 ? (
            <button type="button" className="btn small" onClick={() => void copyUrls()}>
              <Icon name="copy" /> Copy URLs
            </button>
          ) : null}
          <fieldset className="files-export" aria-label="Export" title={exportTitle}>
            <span aria-hidden="true">Export</span>
            {(['csv', 'json'] as const).map((format) => (
              <button
                key={format}
                type="button"
                className="btn small"
                aria-label={`Export ${format.toUpperCase()}`}
                onClick={() => void exportAs(format)}
              >
                {format.toUpperCase()}
              </button>
            ))}
          </fieldset>
          {selection ? (
            <button type="button" className="btn small danger" onClick={() => onDelete(selection)}>
              <Icon name="trash" /> Delete…
            </button>
          ) : null}
        </div>
      </div>
    </div>
  );
}

function JobProgress({ job }: { job: BulkDeleteJob | null }) {
  if (!job || (job.state !== 'running' && job.finishedAt !== null && Date.now() - job.finishedAt > 60_000))
    return null;
  const settled = job.done + job.failed;
  const text =
    job.state === 'running'
      ? `Deleting ${settled.toLocaleString('en')} of ${plural(job.total, 'file')}…`
      : job.state === 'finished'
        ? `Deleted ${plural(job.done, 'file')}${job.failed > 0 ? `; ${job.failed} refused (${job.lastError?.message ?? ''})` : ''}.`
        : job.state === 'cancelled'
          ? `Delete cancelled after ${plural(job.done, 'file')}.`
          : `Delete stopped after ${plural(job.done, 'file')}: ${job.lastError?.message ?? ''}`;
  return (
    <div className="bulk-progress" data-testid="bulk-progress" data-state={job.state}>
      <span className="small">{text}</span>
      <progress max={job.total} value={settled} aria-label="Delete progress" />
      {job.state === 'running' ? (
        <button type="button" className="btn small" onClick={() => void call('files.bulkDelete.cancel', {})}>
          Cancel
        </button>
      ) : null}
    </div>
  );
}
