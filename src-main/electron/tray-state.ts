import type { SyncOverview } from '../../src-shared/contract';
import { SYNC_STATE_LABEL, type SyncState } from '../../src-shared/domain/sync-state';

/** The tray's icon follows the overall sync state. */
export type TrayState = SyncState;

/** What the tray shows for an overview: its icon state, tooltip and the pause/resume item. */
export function trayView(o: SyncOverview | null): {
  state: TrayState;
  tooltip: string;
  toggle: 'Pause syncing' | 'Resume syncing';
  /** The upload limit in force and until when ("Limited to 512 KiB/s until 19:00"), when there is one. */
  limit: string | null;
} {
  const state: TrayState = o?.state ?? 'idle';
  const pending = o?.folders.reduce((n, f) => n + f.counts.pending, 0) ?? 0;
  const problem = o?.folders.find((f) => f.problem)?.problem;
  const detail = o?.offline
    ? ` — offline, ${o.offline.waiting} file${o.offline.waiting === 1 ? '' : 's'} waiting`
    : o?.held
      ? ` — ${o.held.message}`
      : state === 'error' && problem
        ? ` — ${problem}`
        : state === 'syncing'
          ? ` — ${pending} file${pending === 1 ? '' : 's'} to go`
          : '';
  return {
    state,
    tooltip: `Assets Sync: ${SYNC_STATE_LABEL[state]}${detail}`,
    toggle: o?.held?.code === 'USER-PAUSED' ? 'Resume syncing' : 'Pause syncing',
    limit: o?.bandwidth && o.bandwidth.kind !== 'off' ? o.bandwidth.text : null,
  };
}
