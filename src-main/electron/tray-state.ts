import type { OfficeStatus, SyncOverview } from '../../src-shared/contract';
import { officeSentence } from '../../src-shared/domain/office-text';
import { SYNC_STATE_LABEL, SYNC_STATES } from '../../src-shared/domain/sync-state';

/**
 * The tray's icon: the overall sync state, or offline. Offline is the engine's connectivity (the
 * service gives no answer), not one of the sync states: the core's state stays "syncing" while files
 * wait, so the tray asks the overview's `offline` first, as the sidebar badge does.
 */
export const TRAY_STATES = [...SYNC_STATES, 'offline'] as const;
export type TrayState = (typeof TRAY_STATES)[number];

const TRAY_LABEL: Record<TrayState, string> = { ...SYNC_STATE_LABEL, offline: 'Offline' };

/** Which icon the tray shows: `build/icons/tray-<state>.png`. */
export function trayState(o: SyncOverview | null): TrayState {
  if (o?.offline) return 'offline';
  return o?.state ?? 'idle';
}

/** What the tray shows for an overview: its icon state, tooltip and the pause/resume item. */
export function trayView(
  o: SyncOverview | null,
  office: OfficeStatus | null = null,
): {
  state: TrayState;
  tooltip: string;
  toggle: 'Pause syncing' | 'Resume syncing';
  /** The upload limit in force and until when ("Limited to 512 KiB/s until 19:00"), when there is one. */
  limit: string | null;
  /** "Sharing this address with 3 other desks: about 30 requests a minute for this desk" in an office. */
  office: string | null;
} {
  const state = trayState(o);
  const pending = o?.folders.reduce((n, f) => n + f.counts.pending, 0) ?? 0;
  const problem = o?.folders.find((f) => f.problem)?.problem;
  const detail = o?.offline
    ? ` — ${o.offline.waiting} file${o.offline.waiting === 1 ? '' : 's'} waiting`
    : o?.held
      ? ` — ${o.held.message}`
      : state === 'error' && problem
        ? ` — ${problem}`
        : state === 'syncing'
          ? ` — ${pending} file${pending === 1 ? '' : 's'} to go`
          : '';
  const sharing = office && office.mode === 'office' ? officeSentence(office) : null;
  return {
    state,
    tooltip: `Assets Sync: ${TRAY_LABEL[state]}${detail}${sharing ? `\n${sharing}` : ''}`,
    office: sharing,
    toggle: o?.held?.code === 'USER-PAUSED' ? 'Resume syncing' : 'Pause syncing',
    limit: o?.bandwidth && o.bandwidth.kind !== 'off' ? o.bandwidth.text : null,
  };
}
