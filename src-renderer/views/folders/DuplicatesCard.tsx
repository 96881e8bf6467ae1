import { useState } from 'react';
import type { Duplicates } from '../../../src-shared/contract';
import { rentSavingSentence } from '../../../src-shared/domain/rent-saving';
import { call } from '../../api/core-ref';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Icon } from '../../components/Icon';
import { formatAgo, formatBytes } from '../../lib/format';
import { plural } from '../../lib/plural';
import { useAccount } from '../../stores/account-store';
import { orToast, useUi } from '../../stores/ui-store';

/**
 * Copies of the same file on the server, in the buckets of the synced folders. Checking lists the
 * buckets (one request per 100 files), so it runs on demand, not on every visit.
 */
export function DuplicatesCard() {
  const [found, setFound] = useState<Duplicates | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const toast = useUi((s) => s.toast);
  const extra = found?.groups.reduce((n, g) => n + g.extraIds.length, 0) ?? 0;
  const extraBytes = found?.groups.reduce((n, g) => n + g.sizeBytes * g.extraIds.length, 0) ?? 0;
  const a = useAccount((s) => s.account)?.value ?? null;
  // In rupees, as the delete dialog and the Statement say it (issue 35): what removing the copies takes off the rent.
  const saving =
    a && extra > 0
      ? rentSavingSentence(a.usage.bytes_used, extraBytes, a.pricing.per_gb_month_paise, extra)
      : null;

  const check = async () => {
    setBusy(true);
    const r = await orToast(call('sync.duplicates.find', {}));
    setBusy(false);
    if (r) setFound(r);
  };
  const remove = async () => {
    if (!found) return;
    setConfirm(false);
    setBusy(true);
    const r = await orToast(call('sync.duplicates.remove', { keepIds: found.groups.map((g) => g.keepId) }));
    setBusy(false);
    if (!r) return;
    toast('info', `${plural(r.queued, 'extra copy', 'extra copies')} being removed from the server.`);
    setFound({ groups: [], checkedAt: found.checkedAt });
  };

  return (
    <section
      className="card stack"
      aria-labelledby="dupes-title"
      style={{ gap: '0.5rem' }}
      data-testid="duplicates"
    >
      <div className="row">
        <h2 id="dupes-title" style={{ margin: 0 }}>
          Duplicates on the server
        </h2>
        <span className="muted small">
          {found ? `checked ${formatAgo(found.checkedAt)}` : 'same name, size and content in one bucket'}
        </span>
        <span style={{ flex: 1 }} />
        <button type="button" className="btn small" onClick={check} disabled={busy}>
          <Icon name="refresh" /> {found ? 'Check again' : 'Check for duplicates'}
        </button>
      </div>
      {found && found.groups.length === 0 ? (
        <p className="muted small" data-testid="duplicates-none">
          No file is stored more than once.
        </p>
      ) : null}
      {found && found.groups.length > 0 ? (
        <>
          <table className="table" aria-label="Files stored more than once">
            <thead>
              <tr>
                <th>File</th>
                <th>Bucket</th>
                <th className="right">Size</th>
                <th className="right">Copies</th>
              </tr>
            </thead>
            <tbody>
              {found.groups.map((g) => (
                <tr key={g.keepId} data-testid="duplicate-row">
                  <td style={{ overflowWrap: 'anywhere', fontWeight: 550 }}>{g.name}</td>
                  <td className="mono small">{g.bucket}</td>
                  <td className="right num small">{formatBytes(g.sizeBytes)}</td>
                  <td className="right num" data-testid="duplicate-copies">
                    {g.extraIds.length + 1}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {saving ? (
            <p className="muted small" data-testid="duplicates-saving" style={{ margin: 0 }}>
              {plural(extra, 'extra copy', 'extra copies')} ({formatBytes(extraBytes)}). {saving}
            </p>
          ) : null}
          <div className="row" style={{ justifyContent: 'flex-end' }}>
            <button type="button" className="btn danger" onClick={() => setConfirm(true)} disabled={busy}>
              <Icon name="trash" /> Remove extra copies
            </button>
          </div>
        </>
      ) : null}
      <ConfirmDialog
        open={confirm}
        title={`Remove ${plural(extra, 'extra copy', 'extra copies')}?`}
        confirmLabel="Remove extra copies"
        danger
        onConfirm={remove}
        onCancel={() => setConfirm(false)}
      >
        <p style={{ marginTop: 0 }}>One copy of each file stays online; these links stop working:</p>
        <ul style={{ margin: 0, paddingLeft: '1.1rem', maxHeight: '10rem', overflow: 'auto' }}>
          {found?.groups.map((g) => (
            <li key={g.keepId}>
              <strong>{g.name}</strong> in {g.bucket}:{' '}
              {plural(g.extraIds.length, 'extra copy', 'extra copies')} (file {g.extraIds.join(', ')}); file{' '}
              {g.keepId} is kept
            </li>
          ))}
        </ul>
      </ConfirmDialog>
    </section>
  );
}
