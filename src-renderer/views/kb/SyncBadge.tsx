import type { EntryStateView, KbBotView } from '../../../src-shared/contract/kb';
import { statusFactsOf } from '../../../src-shared/domain/status-facts';
import { knowledgeDoing, NO_HOLDS } from '../../../src-shared/domain/status-model';
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
  // What the sync is doing is the status model's reading of the bot (a 429 is a wait, not "Syncing…").
  const facts = statusFactsOf(null, { bots: [bot] }).knowledge?.[0];
  const doing = facts ? knowledgeDoing(facts, NO_HOLDS) : sync.state;
  const tone =
    counts.conflict > 0 || doing === 'error'
      ? 'danger'
      : doing === 'offline' || doing === 'rate-limited' || counts.pending
        ? 'warn'
        : 'ok';
  const doingText =
    doing === 'rate-limited'
      ? `Waiting: the service asked for fewer requests; retrying ${sync.nextAttemptAt ? formatAgoFuture(sync.nextAttemptAt) : 'soon'}`
      : doing === 'syncing'
        ? 'Syncing…'
        : doing === 'offline'
          ? `Offline: retrying ${sync.nextAttemptAt ? formatAgoFuture(sync.nextAttemptAt) : 'soon'}`
          : doing === 'error'
            ? (sync.error?.message ?? 'Sync stopped')
            : sync.lastSyncAt
              ? `Checked ${formatAgo(Date.parse(sync.lastSyncAt))}`
              : 'Not synced yet';
  return (
    <div className="row small" role="status" aria-live="polite" data-testid="kb-sync-line" data-sync={doing}>
      {waiting ? <span className={`badge ${tone}`}>{waiting}</span> : null}
      {counts.conflict > 0 ? <span className="badge danger">{counts.conflict} to resolve</span> : null}
      {counts.error > 0 ? <span className="badge danger">{counts.error} refused</span> : null}
      <span className="muted">{doingText}</span>
    </div>
  );
}

function formatAgoFuture(epochMs: number): string {
  const s = Math.max(0, Math.round((epochMs - Date.now()) / 1000));
  return s < 60 ? `in ${s} s` : `in ${Math.round(s / 60)} min`;
}
