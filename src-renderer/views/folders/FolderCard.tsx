import { useState } from 'react';
import type { FolderView } from '../../../src-shared/contract';
import { call } from '../../api/core-ref';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Icon } from '../../components/Icon';
import { useSync } from '../../stores/sync-store';
import { orToast } from '../../stores/ui-store';
import { FolderPreview } from './FolderPreview';
import { FolderRentShare } from './FolderRentShare';
import { FolderStatus } from './FolderStatus';
import { IgnoredFiles } from './IgnoredFiles';
import { OutsideLinksToggle } from './OutsideLinksToggle';

export function FolderCard({ folder }: { folder: FolderView }) {
  const [confirm, setConfirm] = useState(false);
  const allPaused = useSync((s) => s.overview?.held?.code === 'USER-PAUSED');
  const c = folder.counts;
  return (
    <article
      className="card stack"
      style={{ gap: '0.75rem' }}
      data-testid="folder-card"
      aria-label={`Folder ${folder.path}`}
    >
      <div className="row" style={{ alignItems: 'flex-start' }}>
        <div style={{ minWidth: 0, flex: 1 }}>
          <div className="mono" style={{ overflowWrap: 'anywhere', fontWeight: 600 }}>
            {folder.path}
          </div>
          <div className="small muted">
            to bucket <strong>{folder.bucket}</strong> ·{' '}
            {folder.mode === 'mirror' ? 'mirror (local deletes delete online)' : 'upload only'}
          </div>
        </div>
        <FolderStatus folder={folder} />
      </div>
      {folder.problem ? <div className="error-text">{folder.problem}</div> : null}
      <dl className="row small" style={{ gap: '1.5rem', margin: 0 }}>
        <Count label="Live" value={c.live} testId="count-live" />
        <Count label="Pending" value={c.pending} testId="count-pending" />
        <Count label="Failed" value={c.failed} tone={c.failed ? 'danger' : undefined} testId="count-failed" />
        <Count label="Skipped" value={c.skipped} testId="count-skipped" />
        {c.removedByYou > 0 ? (
          <Count
            label="Removed by you"
            hint="Removed from the CDN by you in the Files view: kept on this computer, never sent again."
            value={c.removedByYou}
            testId="count-removed-by-you"
          />
        ) : null}
      </dl>
      <FolderRentShare folderId={folder.id} live={c.live} />
      <div className="row" style={{ flexWrap: 'wrap' }}>
        {folder.paused ? (
          <button
            type="button"
            className="btn small"
            onClick={() => orToast(call('sync.resume', { folderId: folder.id }))}
          >
            <Icon name="play" /> Resume
          </button>
        ) : allPaused ? (
          <button type="button" className="btn small" onClick={() => orToast(call('sync.resume', {}))}>
            <Icon name="play" /> Resume all
          </button>
        ) : (
          <button
            type="button"
            className="btn small"
            onClick={() => orToast(call('sync.pause', { folderId: folder.id }))}
          >
            <Icon name="pause" /> Pause
          </button>
        )}
        <label className="small muted row" style={{ gap: '0.35rem' }}>
          Mode
          <select
            value={folder.mode}
            aria-label="Mode"
            onChange={(e) =>
              orToast(
                call('sync.folders.update', { id: folder.id, mode: e.target.value as FolderView['mode'] }),
              )
            }
          >
            <option value="upload-only">Upload only</option>
            <option value="mirror">Mirror</option>
          </select>
        </label>
        <OutsideLinksToggle
          compact
          checked={folder.followOutsideLinks}
          onChange={(followOutsideLinks) =>
            orToast(call('sync.folders.update', { id: folder.id, followOutsideLinks }))
          }
        />
        <span className="spacer" />
        <FolderPreview request={{ path: folder.path }} />
        <button type="button" className="btn small ghost danger" onClick={() => setConfirm(true)}>
          Stop syncing
        </button>
      </div>
      <IgnoredFiles folder={folder} />
      <ConfirmDialog
        open={confirm}
        title="Stop syncing this folder?"
        confirmLabel="Stop syncing"
        danger
        onCancel={() => setConfirm(false)}
        onConfirm={async () => {
          setConfirm(false);
          await orToast(call('sync.folders.remove', { id: folder.id }));
        }}
      >
        <span className="mono">{folder.path}</span> stops being watched. Files already online stay online, and
        nothing on this computer is deleted.
      </ConfirmDialog>
    </article>
  );
}

function Count({
  label,
  hint,
  value,
  tone,
  testId,
}: {
  label: string;
  hint?: string;
  value: number;
  tone?: 'danger';
  testId: string;
}) {
  return (
    <div title={hint}>
      <dt className="muted">{label}</dt>
      <dd
        className="num"
        data-testid={testId}
        style={{
          margin: 0,
          fontSize: '1.125rem',
          fontWeight: 620,
          color: tone ? 'var(--danger)' : undefined,
        }}
      >
        {value.toLocaleString()}
      </dd>
    </div>
  );
}
