import { useEffect, useRef } from 'react';
import type { FolderView, ProblemItem, Queue } from '../../../src-shared/contract';
import { failureSentence } from '../../../src-shared/domain/failure-text';
import { fileStatus } from '../../../src-shared/domain/status-model';
import { call } from '../../api/core-ref';
import { Icon } from '../../components/Icon';
import { clockTime } from '../../lib/clock-time';
import { rescueFocus } from '../../lib/focus-rescue';
import { formatBytes, formatDuration } from '../../lib/format';
import { plural } from '../../lib/plural';
import { useAppStatus } from '../../stores/app-status';
import { orToast } from '../../stores/ui-store';
import { ProblemFolder } from './ProblemFolder';

export function QueuePanel({ queue }: { queue: Queue }) {
  // The queue's words are the status model's (src-shared/domain/status-model.ts): its header counts the
  // folders' pending files (those waiting to retry too), and a row under a hold says the hold.
  const status = useAppStatus();
  const hold = status.pendingBy.hold;
  const offline = hold === 'offline';
  return (
    <section className="card stack" aria-labelledby="queue-title" style={{ gap: '0.5rem' }}>
      <div className="row">
        <h2 id="queue-title" style={{ margin: 0 }}>
          Queue
        </h2>
        <span className="muted small" data-testid="queue-summary">
          {status.queueText}
        </span>
      </div>
      {queue.active.length === 0 ? (
        <p className="muted small">Nothing is uploading right now.</p>
      ) : (
        <table className="table" aria-label="Uploads in progress">
          <thead>
            <tr>
              <th>File</th>
              <th style={{ width: '35%' }}>Progress</th>
              <th className="right">Speed</th>
              <th className="right">Left</th>
            </tr>
          </thead>
          <tbody>
            {queue.active.map((q) => {
              const pct = q.sizeBytes > 0 ? Math.min(100, (q.sentBytes / q.sizeBytes) * 100) : 0;
              return (
                <tr key={q.fileId} data-testid="queue-row">
                  <td>
                    <div style={{ fontWeight: 550, overflowWrap: 'anywhere' }}>{q.name}</div>
                    <div className="small muted">
                      {fileStatus({ state: q.state, reasonCode: null, nextRetryAt: null }, hold).word} ·{' '}
                      {formatBytes(q.sizeBytes)}
                    </div>
                  </td>
                  <td>
                    <div
                      className="progress"
                      role="progressbar"
                      aria-valuenow={Math.round(pct)}
                      aria-valuemin={0}
                      aria-valuemax={100}
                      aria-label={`${q.name} progress`}
                    >
                      <span style={{ width: `${pct}%` }} />
                    </div>
                  </td>
                  <td className="right num small">
                    {!hold && q.bytesPerSecond ? `${formatBytes(q.bytesPerSecond)}/s` : '—'}
                  </td>
                  <td className="right num small">{hold ? '—' : formatDuration(q.etaSeconds)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <NextUp queue={queue} offline={offline} />
    </section>
  );
}

const LANE_WORD = { now: 'Upload now', live: 'Just added', backlog: 'Backlog' } as const;

/** The waiting files in the order they will go, in their lanes, each with "Upload now". */
function NextUp({ queue, offline }: { queue: Queue; offline: boolean }) {
  const next = queue.next ?? [];
  const table = useRef<HTMLTableElement>(null);
  // The file whose "Upload now" was pressed, and its button's place among the table's buttons.
  const pressed = useRef<{ fileId: number; index: number } | null>(null);
  useEffect(() => {
    const p = pressed.current;
    if (!p) return;
    const row = next.find((n) => n.fileId === p.fileId);
    if (row && row.lane !== 'now') return; // not moved yet
    pressed.current = null;
    // Its button is gone with the move: the keyboard goes on from the button that took its place.
    const buttons = [...(table.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
    rescueFocus(buttons[Math.min(p.index, buttons.length - 1)], table.current);
  }, [next]);
  if (next.length === 0) return null;
  const uploadNow = (fileId: number, button: HTMLButtonElement) => {
    const all = [...(table.current?.querySelectorAll('button') ?? [])];
    pressed.current = { fileId, index: Math.max(0, all.indexOf(button)) };
    void orToast(call('sync.uploadNow', { fileId }));
  };
  return (
    <table className="table" aria-label="Next to upload" ref={table} tabIndex={-1}>
      <thead>
        <tr>
          <th>Next</th>
          <th>Lane</th>
          <th className="right">Size</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {next.map((n) => (
          <tr key={n.fileId} data-testid="next-row" data-lane={n.lane}>
            <td style={{ overflowWrap: 'anywhere' }}>{n.name}</td>
            <td className="small muted">{LANE_WORD[n.lane]}</td>
            <td className="right num small">{formatBytes(n.sizeBytes)}</td>
            <td className="right">
              {n.lane === 'now' ? null : (
                <button
                  type="button"
                  className="btn small"
                  disabled={offline}
                  aria-label={`Upload now: ${n.name}`}
                  onClick={(e) => uploadNow(n.fileId, e.currentTarget)}
                >
                  Upload now
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ProblemsPanel({ queue, folders }: { queue: Queue; folders: FolderView[] }) {
  // The counts are whole; the list is the queue's (the first 200 of each kind). The folders' tally
  // counts a file waiting for its retry as pending, so the queue's own total counts the rows listed.
  const failed = folders.reduce((n, f) => n + f.counts.failed, 0);
  const total =
    queue.problemsTotal ?? failed + folders.reduce((n, f) => n + f.counts.skipped + f.counts.removedByYou, 0);
  if (total === 0 && queue.problems.length === 0) return null;
  const shown = queue.problems.slice(0, 200);
  // The last column holds only Retry buttons: over skipped rows alone it would be an empty column.
  const retryable = shown.some((p) => p.state === 'FAILED');
  return (
    <section className="card stack" aria-labelledby="problems-title" style={{ gap: '0.5rem' }}>
      <div className="row">
        <h2 id="problems-title" style={{ margin: 0 }}>
          Not uploaded
        </h2>
        <span className="muted small" data-testid="problems-total">
          {plural(total, 'file')}
          {shown.length < total ? ` (the first ${shown.length.toLocaleString()} shown)` : ''}
        </span>
        <span className="spacer" />
        {failed > 0 ? (
          <button type="button" className="btn small" onClick={() => orToast(call('sync.retry', {}))}>
            <Icon name="retry" /> Retry all failed
          </button>
        ) : null}
      </div>
      <table className="table">
        <thead>
          <tr>
            <th>File</th>
            <th>Why</th>
            {retryable ? <th className="right">Action</th> : null}
          </tr>
        </thead>
        <tbody>
          {shown.map((p) => (
            <tr key={p.fileId} data-testid="problem-row">
              <td style={{ overflowWrap: 'anywhere' }}>
                <span style={{ fontWeight: 550 }}>{p.name}</span>{' '}
                {/* A failure with its automatic retry ahead is pending (state/transitions.ts), not failed for good. */}
                <ProblemBadge p={p} />
                <ProblemFolder folderId={p.folderId} folders={folders} />
              </td>
              {/* The sentence alone: the service's code ("EXTENSION-NOT-ALLOWED") stood before it, a
                  word a person has to decode; it stays in the tooltip, with the stored reason, for support. */}
              <td className="small" title={`${p.code}: ${p.reason}`} data-testid="problem-reason">
                {p.state === 'FAILED' ? failureSentence(p, clockTime) : p.reason}
              </td>
              {retryable ? (
                <td className="right small">
                  {p.state === 'FAILED' ? (
                    <button
                      type="button"
                      className="btn small"
                      onClick={() => orToast(call('sync.retry', { fileId: p.fileId }))}
                    >
                      Retry
                    </button>
                  ) : null}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** A file not uploaded, in the model's word: "Will retry", "Failed", "Skipped", "Removed by you". */
function ProblemBadge({ p }: { p: ProblemItem }) {
  const f = fileStatus({ state: p.state, reasonCode: p.code, nextRetryAt: p.nextRetryAt });
  return (
    <span className={`badge ${f.tone === 'ok' ? '' : f.tone}`} data-testid="problem-word">
      {f.word}
    </span>
  );
}
