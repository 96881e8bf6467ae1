import type { FolderView } from '../../../src-shared/contract';
import { Icon } from '../../components/Icon';
import { useSync } from '../../stores/sync-store';

/**
 * A folder's state in one badge (and a link to its failed files): never "In sync" while a file
 * failed or waits, "Offline" when the core says the service gives no answer.
 */
export function FolderStatus({ folder }: { folder: FolderView }) {
  const offline = useSync((s) => s.overview?.offline != null);
  // The account holds uploads (402, a refused key): waiting files are paused, not syncing.
  const held = useSync((s) => s.overview?.held?.code ?? null);
  const c = folder.counts;
  // One name per state, and the badge says who paused: this folder, Pause all, or the account.
  const state = folder.paused ? (
    <span className="badge warn">Paused</span>
  ) : held === 'USER-PAUSED' ? (
    <span className="badge warn">All paused</span>
  ) : offline && c.pending > 0 ? (
    <span className="badge warn">Offline</span>
  ) : held && c.pending > 0 ? (
    <span className="badge warn">
      {held === 'UNAUTHENTICATED' ? 'Key refused' : 'Waiting for the wallet'}
    </span>
  ) : c.pending > 0 ? (
    <span className="badge ok">Syncing</span>
  ) : c.failed === 0 ? (
    <span className="badge ok">
      <Icon name="check" /> In sync
    </span>
  ) : null;
  return (
    <span className="row" style={{ gap: '0.35rem' }} data-testid="folder-status">
      {state}
      {c.failed > 0 ? (
        <button
          type="button"
          className="badge danger link-badge"
          title="Show the files that failed"
          onClick={() => document.getElementById('problems-title')?.scrollIntoView({ block: 'start' })}
        >
          {c.failed.toLocaleString('en')} need{c.failed === 1 ? 's' : ''} attention
        </button>
      ) : null}
    </span>
  );
}
