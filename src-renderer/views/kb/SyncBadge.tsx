import type { EntryStateView, KbBotView } from '../../../src-shared/contract/kb';
import { formatAgo } from '../../lib/format';

const ENTRY_LABEL: Record<EntryStateView, [string, string]> = {
  synced: ['Synced', 'ok'],
  pending: ['Pending', 'warn'],
  conflict: ['Conflict', 'danger'],
  error: ['Refused', 'danger'],
};

export function EntryStateBadge({ state, deleted }: { state: EntryStateView; deleted?: boolean }) {
  const [label, tone] = ENTRY_LABEL[state];
  return (
    <span className={`badge ${tone}`} data-state={state}>
      {deleted && state === 'pending' ? 'Deleting' : label}
    </span>
  );
}

/** The bot's overall state in words: what is waiting, and what the sync is doing about it. */
export function BotSyncLine({ bot }: { bot: KbBotView }) {
  const { counts, sync } = bot;
  const stuck = counts.conflict + counts.error;
  const waiting =
    counts.pending > 0 ? `${counts.pending} waiting to sync` : stuck === 0 ? 'All changes synced' : null;
  const tone =
    counts.conflict > 0 || sync.state === 'error'
      ? 'danger'
      : sync.state === 'offline' || counts.pending
        ? 'warn'
        : 'ok';
  const doing =
    sync.state === 'syncing'
      ? 'Syncing…'
      : sync.state === 'offline'
        ? `Offline: retrying ${sync.nextAttemptAt ? formatAgoFuture(sync.nextAttemptAt) : 'soon'}`
        : sync.state === 'error'
          ? (sync.error?.message ?? 'Sync stopped')
          : sync.lastSyncAt
            ? `Checked ${formatAgo(Date.parse(sync.lastSyncAt))}`
            : 'Not synced yet';
  return (
    <div
      className="row small"
      role="status"
      aria-live="polite"
      data-testid="kb-sync-line"
      data-sync={sync.state}
    >
      {waiting ? <span className={`badge ${tone}`}>{waiting}</span> : null}
      {counts.conflict > 0 ? <span className="badge danger">{counts.conflict} to resolve</span> : null}
      {counts.error > 0 ? <span className="badge danger">{counts.error} refused</span> : null}
      <span className="muted">{doing}</span>
    </div>
  );
}

function formatAgoFuture(epochMs: number): string {
  const s = Math.max(0, Math.round((epochMs - Date.now()) / 1000));
  return s < 60 ? `in ${s} s` : `in ${Math.round(s / 60)} min`;
}
