import type { FolderStatusModel } from '../../../src-shared/domain/status-model';
import { Icon } from '../../components/Icon';

/**
 * A folder's state in one badge (and a link to its failed files), in the status model's words
 * (src-shared/domain/status-model.ts): the hold that keeps its files is named ("Paused by the
 * schedule", "Offline"), never "Syncing" while nothing may be sent, never "In sync" while a file
 * failed, waits, or a change is still being read.
 */
export function FolderStatus({ status }: { status: FolderStatusModel }) {
  return (
    <span className="row" style={{ gap: '0.35rem' }} data-testid="folder-status" data-state={status.state}>
      {status.word === status.attention ? null : (
        <span className={`badge ${status.tone}`} data-testid="folder-word">
          {status.state === 'idle' ? <Icon name="check" /> : null} {status.word}
        </span>
      )}
      {status.attention ? (
        <button
          type="button"
          className="badge danger link-badge"
          title="Show the files that failed"
          onClick={() => document.getElementById('problems-title')?.scrollIntoView({ block: 'start' })}
        >
          {status.attention}
        </button>
      ) : null}
    </span>
  );
}
