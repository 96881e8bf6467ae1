/**
 * The notifications of the app's state (issue 31, "one voice"): a desktop notification, a toast or the
 * screen reader's live region says the status model's own words, the ones the sidebar, the folder card
 * and the tray show of the same state, never a sentence of its own. Pure, like the model.
 */
import { type AppCause, type AppStatusModel, countsLine } from './status-model';

export type StateNoticeKind = 'in-sync' | 'paused-money' | 'error' | 'offline' | 'attention' | 'leads';

export interface StateNotice {
  kind: StateNoticeKind;
  /** The model's word: "Waiting for the wallet", "Offline", "1 needs attention", "In sync". */
  title: string;
  /** What the model says after it (the tray's detail; a folder's path and counts). */
  body: string;
}

/**
 * The moments worth a notification, by what the app's word speaks of. A pause the person made, the
 * schedule's, and work going on are not: the person knows, or nothing needs them.
 */
const NOTICE_OF: Partial<Record<AppCause, Exclude<StateNoticeKind, 'in-sync'>>> = {
  stopped: 'error',
  problem: 'error',
  key: 'paused-money',
  wallet: 'paused-money',
  offline: 'offline',
  failed: 'attention',
  leads: 'leads',
};

/** The notification an app state deserves in itself, or null (see NOTICE_OF). */
export function noticeKindOf(m: AppStatusModel): Exclude<StateNoticeKind, 'in-sync'> | null {
  const kind = NOTICE_OF[m.cause] ?? null;
  // Offline with nothing waiting costs nothing; leads only waiting at the relay are on their way.
  if (kind === 'offline' && m.detail === null) return null;
  if (kind === 'leads' && m.leads?.kind === 'relay-waiting') return null;
  return kind;
}

/**
 * The notification for a change of the app's state: when what its word speaks of becomes one worth a
 * notification (not again while it stays so: "1 needs attention" then "2 need attention" is one moment).
 * The title is the app's word, the body its detail: what the sidebar and the tray say of this state.
 */
export function appNotice(prev: AppStatusModel | null, next: AppStatusModel): StateNotice | null {
  const kind = noticeKindOf(next);
  if (!kind || (prev && noticeKindOf(prev) === kind)) return null;
  return { kind, title: next.word, body: next.detail ?? '' };
}

/**
 * A folder that came in sync (its runner says so): said only when the model agrees (the folder's word is
 * "In sync", live files in it), with the card's word and counts.
 */
export function folderInSyncNotice(m: AppStatusModel, folderId: number, path: string): StateNotice | null {
  const f = m.folders.find((x) => x.id === folderId);
  if (f?.state !== 'idle' || f.counts.live === 0) return null;
  return { kind: 'in-sync', title: f.word, body: `${path} · ${countsLine(f.counts)}` };
}
