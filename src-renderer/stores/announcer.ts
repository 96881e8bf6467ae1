import { create } from 'zustand';
import type { SyncOverview } from '../../src-shared/contract';

/**
 * What a screen reader is told without a look (issue 23): a folder going in sync, offline and back,
 * uploads paused for money and resumed, a new lead. One polite live region (components/Announcer.tsx)
 * says the last sentence; `n` makes a repeat of the same words a change the reader notices.
 */
export const useAnnouncer = create<{ text: string; n: number; announce(text: string): void }>((set) => ({
  text: '',
  n: 0,
  announce: (text) => set((s) => ({ text, n: s.n + 1 })),
}));

const MONEY = new Set(['LOW-BALANCE', 'UPLOADS-PAUSED']);

/** The sentence a change of the overview deserves, or null: offline or back, paused for money or resumed. */
export function overviewChange(prev: SyncOverview | null, next: SyncOverview): string | null {
  if (!prev) return null;
  if (!prev.offline && next.offline) return 'Offline: the service does not answer. Files wait to upload.';
  if (prev.offline && !next.offline) return 'Back online.';
  const wasMoney = MONEY.has(prev.held?.code ?? '');
  const isMoney = MONEY.has(next.held?.code ?? '');
  if (!wasMoney && isMoney) return `Uploads paused: ${next.held?.message ?? 'the wallet needs a top-up.'}`;
  if (wasMoney && !isMoney) return 'Uploads resumed.';
  return null;
}
