import type { OfficeStatus, SyncOverview } from '../../src-shared/contract';
import type { KbBotView } from '../../src-shared/contract/kb';
import type { ReceiverView, RelayView } from '../../src-shared/contract/leads';
import { officeSentence } from '../../src-shared/domain/office-text';
import { appStatusOf } from '../../src-shared/domain/status-facts';
import type { AppState } from '../../src-shared/domain/status-model';

/**
 * The tray's icon: the app's state in the one status model (src-shared/domain/status-model.ts), which
 * the sidebar's badge shows too: offline is one of them, and a hold (the schedule, the wallet) is said
 * by the same word on both.
 */
export const TRAY_STATES = [
  'idle',
  'syncing',
  'paused',
  'error',
  'offline',
] as const satisfies readonly AppState[];
export type TrayState = (typeof TRAY_STATES)[number];

/** Which icon the tray shows: `build/icons/tray-<state>.png`. */
export function trayState(o: SyncOverview | null, bots: readonly KbBotView[] = []): TrayState {
  return appStatusOf(o, { bots }).state;
}

/** The leads' relay and receiver as the core last sent them: a lead link that is down is in the word too. */
export interface TrayLeads {
  relay?: RelayView | null;
  receiver?: ReceiverView | null;
}

/** What the tray shows for an overview: its icon state, tooltip and the pause/resume item. */
export function trayView(
  o: SyncOverview | null,
  office: OfficeStatus | null = null,
  bots: readonly KbBotView[] = [],
  leads: TrayLeads = {},
): {
  state: TrayState;
  tooltip: string;
  toggle: 'Pause syncing' | 'Resume syncing';
  /** The upload limit in force and until when ("Limited to 512 KiB/s until 19:00"), when there is one. */
  limit: string | null;
  /** "Sharing this address with 3 other desks: about 30 requests a minute for this desk" in an office. */
  office: string | null;
} {
  const m = appStatusOf(o, { bots, office, ...leads });
  const sharing = office && office.mode === 'office' ? officeSentence(office) : null;
  return {
    state: m.state,
    tooltip: `Assets Sync: ${m.word}${m.detail ? ` — ${m.detail}` : ''}${sharing ? `\n${sharing}` : ''}`,
    office: sharing,
    toggle: m.toggle === 'resume' ? 'Resume syncing' : 'Pause syncing',
    limit: o?.bandwidth && o.bandwidth.kind !== 'off' ? o.bandwidth.text : null,
  };
}
