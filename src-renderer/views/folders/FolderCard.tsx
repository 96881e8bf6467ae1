import { useState } from 'react';
import type { FolderView } from '../../../src-shared/contract';
import { folderFacts } from '../../../src-shared/domain/status-facts';
import { COUNT_LABELS, folderStatus, NO_HOLDS } from '../../../src-shared/domain/status-model';
import { call } from '../../api/core-ref';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Icon } from '../../components/Icon';
import { useAppStatus } from '../../stores/app-status';
import { orToast } from '../../stores/ui-store';
import { useFolderPreview } from './FolderPreview';
import { FolderRentShare } from './FolderRentShare';
import { FolderStatus } from './FolderStatus';
import { IgnoredFiles } from './IgnoredFiles';
import { OutsideLinksToggle } from './OutsideLinksToggle';

export function FolderCard({ folder }: { folder: FolderView }) {
  const [confirm, setConfirm] = useState(false);
  // The folder's words, counts and action: the one status model's (src-shared/domain/status-model.ts).
  const status =
    useAppStatus().folders.find((f) => f.id === folder.id) ??
    folderStatus(folderFacts(folder), {
      holds: NO_HOLDS,
    });
  const preview = useFolderPreview({ path: folder.path });
  const c = status.counts;
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
        <FolderStatus status={status} />
      </div>
      {folder.problem ? <div className="error-text">{folder.problem}</div> : null}
      <dl className="row small" style={{ gap: '1.5rem', margin: 0 }}>
        {COUNT_LABELS.filter(([k]) => k !== 'removedByYou' || c.removedByYou > 0).map(([k, label]) => (
          <Count
            key={k}
            label={label}
            hint={
              k === 'removedByYou'
                ? 'Removed from the CDN by you in the Files view: kept on this computer, never sent again.'
                : undefined
            }
            value={c[k]}
            tone={k === 'failed' && c.failed ? 'danger' : undefined}
            testId={`count-${k === 'removedByYou' ? 'removed-by-you' : k}`}
          />
        ))}
      </dl>
      {status.pendingText ? (
        <div className="small muted" data-testid="folder-pending">
          {status.pendingText}
        </div>
      ) : null}
      {/* Share of the daily rent (its own component, fed by the rent shares that add up). */}
      <FolderRentShare folderId={folder.id} live={c.live} />
      <div className="row" style={{ flexWrap: 'wrap' }}>
        {status.action === 'resume' ? (
          <button
            type="button"
            className="btn small"
            onClick={() => orToast(call('sync.resume', { folderId: folder.id }))}
          >
            <Icon name="play" /> Resume
          </button>
        ) : status.action === 'resume-all' ? (
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
        {preview.button}
        <button type="button" className="btn small ghost danger" onClick={() => setConfirm(true)}>
          Stop syncing
        </button>
      </div>
      {preview.report}
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
