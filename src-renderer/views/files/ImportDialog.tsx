import { useEffect, useId, useRef, useState } from 'react';
import {
  type IdCheckRun,
  type ImportLineView,
  type ImportRun,
  MAX_LIST_CHARS,
} from '../../../src-shared/contract/url-import';
import { importRunSentence } from '../../../src-shared/domain/words';
import { call } from '../../api/core-ref';
import { FormError, TextField } from '../../components/Field';
import { usePanelFocus } from '../../components/focus-return';
import { Icon } from '../../components/Icon';
import { useUi } from '../../stores/ui-store';
import { useImportProgress } from './import-progress';
import './import-dialog.css';
import { ListResults, SHOWN, stateBadge, UrlText } from './ListResults';

type Mode = 'import' | 'ids';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * Import from URLs (the retired `saveToLocal`, in bulk), and a check of old `cdn_id`s. Every line is
 * checked here before a request is spent; the core runs the list within the request budget and
 * keeps its results under the list's name, so running the same name again skips what succeeded.
 */
export function ImportDialog({ onClose }: { onClose(): void }) {
  const panel = useRef<HTMLElement>(null);
  const listId = useId();
  usePanelFocus(panel, onClose);
  const [mode, setMode] = useState<Mode>('import');
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const [checked, setChecked] = useState<ImportLineView[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [run, setRun] = useState<ImportRun | null>(null);
  const [ids, setIds] = useState<IdCheckRun | null>(null);
  const progress = useImportProgress();

  // Each line is checked as the list changes: no request, the same rules as the core's.
  useEffect(() => {
    setError(null);
    if (text.length > MAX_LIST_CHARS)
      return setError('The list is longer than 900,000 characters (about 11,000 lines): split it in parts.');
    if (mode !== 'import' || text.trim() === '') return setChecked([]);
    let current = true;
    void call('urlImport.check', { text }).then((r) => {
      if (!current) return;
      if (r.ok) setChecked(r.value.lines);
      else setError(r.error.message);
    });
    return () => {
      current = false;
    };
  }, [text, mode]);

  const ready = checked.filter((l) => !l.problem).length;
  const bad = checked.length - ready;
  const listName = name.trim() || 'pasted list';

  async function start() {
    setBusy(true);
    setError(null);
    useImportProgress.setState({ done: 0, total: 0, name: listName });
    if (mode === 'import') {
      const r = await call('urlImport.run', { name: listName, text });
      if (r.ok) {
        // The imported files reach the index through the core's client: files.index.changed follows.
        setRun(r.value);
        // What happened, in Activity's words (issue 34: the only toast after it was "Folder in sync").
        const v = r.value;
        useUi
          .getState()
          .toast(
            v.failed > 0 || v.stoppedBy ? 'error' : 'info',
            importRunSentence(listName, v, v.stoppedBy?.message ?? null),
          );
      } else setError(`${r.error.message} (${r.error.code})`);
    } else {
      const r = await call('urlImport.checkIds', { name: listName, text });
      if (r.ok) setIds(r.value);
      else setError(`${r.error.message} (${r.error.code})`);
    }
    setBusy(false);
  }

  const switchTo = (m: Mode) => {
    setMode(m);
    setRun(null);
    setIds(null);
    setError(null);
  };

  return (
    <section ref={panel} className="card stack import-dialog" aria-label="Import from URLs">
      <div className="row">
        <h2 style={{ margin: 0 }}>Import from URLs</h2>
        <span className="spacer" />
        <fieldset className="segmented">
          <legend className="visually-hidden">What the list holds</legend>
          <button type="button" aria-pressed={mode === 'import'} onClick={() => switchTo('import')}>
            Source URLs
          </button>
          <button
            type="button"
            aria-pressed={mode === 'ids'}
            onClick={() => switchTo('ids')}
            title="The cdn_id values of the retired interface"
          >
            Old file ids
          </button>
        </fieldset>
      </div>
      <p className="small muted" style={{ margin: 0 }}>
        {mode === 'import'
          ? 'A text or CSV file, one line each: source_url[,bucket[,md5]]. Lines with a problem are shown and skipped; the others are uploaded. Run the same list again to retry what failed: what succeeded is not sent twice.'
          : 'One id from the retired interface a line (its old ids are the new file ids): each is looked up, live with its URL, or gone.'}
      </p>
      <div className="row" style={{ alignItems: 'flex-end' }}>
        <TextField
          label="List name"
          flex="1 1 12rem"
          value={name}
          placeholder="pasted list"
          onChange={setName}
        />
        <label className="import-file">
          <Icon name="upload" /> Choose a file
          <input
            type="file"
            accept=".txt,.csv,text/plain,text/csv"
            className="visually-hidden"
            aria-label="List file"
            onChange={async (e) => {
              const f = e.target.files?.[0];
              if (!f) return;
              setName(f.name);
              setText(await f.text());
              setRun(null);
              setIds(null);
            }}
          />
        </label>
      </div>
      <div className="field">
        {/* A label apart from its box: inside it, the box's text became part of its name. */}
        <label htmlFor={listId}>{mode === 'import' ? 'Or paste the lines' : 'Or paste the ids'}</label>
        <textarea
          id={listId}
          rows={5}
          className="mono"
          value={text}
          placeholder={
            mode === 'import'
              ? 'https://example.com/price-list.pdf,brochures\nhttps://example.com/logo.png'
              : '1042\n1043'
          }
          onChange={(e) => {
            setText(e.target.value);
            setRun(null);
            setIds(null);
          }}
        />
      </div>

      {mode === 'import' && checked.length > 0 && !run ? (
        <>
          <div className="small" role="status">
            {plural(checked.length, 'line')}: {ready} ready
            {bad > 0 ? <span className="error-text">, {bad} with a problem (not sent)</span> : null}
          </div>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling area takes focus so a keyboard can scroll it (WCAG 2.1.1) */}
          <section className="import-table" tabIndex={0} aria-label="Checked lines">
            <table className="table" aria-label="Checked lines">
              <thead>
                <tr>
                  <th className="import-line">Line</th>
                  <th style={{ width: '45%' }}>Source URL</th>
                  <th>Bucket</th>
                  <th>Check</th>
                </tr>
              </thead>
              <tbody>
                {checked.slice(0, SHOWN).map((l) => (
                  <tr key={l.line} data-line={l.line}>
                    <td className="num">{l.line}</td>
                    <td className="mono import-url">
                      <UrlText url={l.sourceUrl} />
                    </td>
                    <td>{l.bucket ?? <span className="muted">default</span>}</td>
                    <td>
                      {l.problem ? (
                        <span className="error-text">
                          <span className="badge danger" title={l.problem.code} data-code={l.problem.code}>
                            Not sent
                          </span>{' '}
                          {l.problem.message}
                        </span>
                      ) : (
                        <span className="badge ok">Ready</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {checked.length > SHOWN ? (
              <div className="small muted">and {checked.length - SHOWN} more lines</div>
            ) : null}
          </section>
        </>
      ) : null}

      {busy ? (
        <div className="stack" role="status" aria-label="Import progress">
          <span className="small">
            {progress.total > 0 ? `${progress.done} of ${progress.total} lines done` : 'Starting…'}
          </span>
          <div className="progress">
            <span style={{ width: `${progress.total ? (100 * progress.done) / progress.total : 0}%` }} />
          </div>
        </div>
      ) : null}

      {run ? <ImportResults run={run} name={listName} /> : null}
      {ids ? <IdResults run={ids} name={listName} /> : null}

      <FormError message={error} />
      <div className="row" style={{ justifyContent: 'flex-end' }}>
        <button type="button" className="btn ghost" onClick={onClose}>
          Close
        </button>
        <button
          type="button"
          className="btn primary"
          disabled={
            busy || text.trim() === '' || text.length > MAX_LIST_CHARS || (mode === 'import' && ready === 0)
          }
          onClick={() => void start()}
        >
          {mode === 'import'
            ? run
              ? 'Run again'
              : `Import ${plural(ready, 'line')}`
            : ids
              ? 'Check again'
              : 'Check ids'}
        </button>
      </div>
    </section>
  );
}

function ImportResults({ run, name }: { run: ImportRun; name: string }) {
  return (
    <ListResults
      label="Import results"
      name={name}
      csv={run.csv}
      summary={
        <>
          {plural(run.uploaded, 'file')} uploaded
          {run.alreadyDone > 0 ? `, ${run.alreadyDone} already done by an earlier run` : ''}
          {run.failed > 0 ? `, ${run.failed} failed` : ''}
          {run.skipped > 0 ? `, ${run.skipped} not tried` : ''} ({plural(run.requests, 'request')}).
        </>
      }
      notice={
        run.stoppedBy ? (
          <div className="banner warn">
            The account stopped the run: {run.stoppedBy.message} The lines not tried are tried on the next
            run.
          </div>
        ) : null
      }
      rows={run.results}
      columns={[
        {
          head: 'Result',
          cell: (r) =>
            stateBadge(r.status, { OK: ['ok', 'Uploaded'], SKIPPED: ['warn', 'Not tried'] }, r.code),
        },
        {
          head: 'New file or reason',
          className: 'import-url',
          width: '70%',
          cell: (r) =>
            r.status === 'OK' ? (
              <>
                <span className="num">#{r.id}</span>{' '}
                <a className="mono" href={r.url ?? undefined} target="_blank" rel="noreferrer">
                  <UrlText url={r.url ?? ''} />
                </a>
              </>
            ) : (
              <>
                <span className="mono small">
                  <UrlText url={r.sourceUrl} />
                </span>
                <br />
                {r.message}
              </>
            ),
        },
      ]}
    />
  );
}

function IdResults({ run, name }: { run: IdCheckRun; name: string }) {
  return (
    <ListResults
      label="Id check results"
      name={name}
      csv={run.csv}
      summary={`${run.live} live, ${run.gone} gone${run.errors > 0 ? `, ${run.errors} not checked` : ''}.`}
      rows={run.results}
      columns={[
        { head: 'cdn_id', className: 'mono', cell: (r) => r.cdnId },
        {
          head: 'State',
          cell: (r) => stateBadge(r.status, { LIVE: ['ok', 'Live'], GONE: ['warn', 'Gone'] }, r.code),
        },
        {
          head: 'URL or reason',
          className: 'import-url',
          width: '65%',
          cell: (r) =>
            r.status === 'LIVE' ? (
              <a className="mono" href={r.url ?? undefined} target="_blank" rel="noreferrer">
                <UrlText url={r.url ?? ''} />
              </a>
            ) : (
              (r.message ?? '')
            ),
        },
      ]}
    />
  );
}
