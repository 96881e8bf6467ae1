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
 * The moments in force in a model, whether or not its word speaks of them now: files that need
 * attention and the leads' link down stay so while files sync beside them ("Syncing" is the word).
 */
export function noticeMoments(m: AppStatusModel): Set<StateNoticeKind> {
  const moments = new Set<StateNoticeKind>();
  const k = noticeKindOf(m);
  if (k) moments.add(k);
  if (m.attention > 0) moments.add('attention');
  if (m.leads?.speaksForApp && m.leads.kind !== 'relay-waiting') moments.add('leads');
  return moments;
}

/**
 * The notifications of a running app's models, one after the other: one when what the app's word
 * speaks of becomes worth one, and not again for the same moment until it is over ("1 needs attention"
 * then "2 need attention" is one moment; a relay down while files come and go is one, though the word
 * goes from the relay to "Syncing" and back). The title is the app's word, the body its detail: what the
 * sidebar and the tray say of this state.
 */
export function noticeTracker(): (m: AppStatusModel) => StateNotice | null {
  let said = new Set<StateNoticeKind>();
  return (m) => {
    const now = noticeMoments(m);
    said = new Set([...said].filter((k) => now.has(k)));
    const kind = noticeKindOf(m);
    if (!kind || said.has(kind)) return null;
    said.add(kind);
    return { kind, title: m.word, body: m.detail ?? '' };
  };
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
