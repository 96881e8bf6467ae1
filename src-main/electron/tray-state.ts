import type { SyncOverview } from '../../src-shared/contract';

export type TrayState = 'idle' | 'syncing' | 'paused' | 'error';

const LABEL: Record<TrayState, string> = {
  idle: 'Up to date',
  syncing: 'Syncing…',
  paused: 'Paused',
  error: 'Needs attention',
};

/** What the tray shows for an overview: its icon state, tooltip and the pause/resume item. */
export function trayView(o: SyncOverview | null): {
  state: TrayState;
  tooltip: string;
  toggle: 'Pause syncing' | 'Resume syncing';
} {
  const state: TrayState = o?.state ?? 'idle';
  const pending = o?.folders.reduce((n, f) => n + f.counts.pending, 0) ?? 0;
  const problem = o?.folders.find((f) => f.problem)?.problem;
  const detail = o?.held
    ? ` — ${o.held.message}`
    : state === 'error' && problem
      ? ` — ${problem}`
      : state === 'syncing'
        ? ` — ${pending} file${pending === 1 ? '' : 's'} to go`
        : '';
  return {
    state,
    tooltip: `Assets Sync: ${LABEL[state]}${detail}`,
    toggle: o?.held?.code === 'USER-PAUSED' ? 'Resume syncing' : 'Pause syncing',
  };
}
