import { create } from 'zustand';
import type { AppStatusModel } from '../../src-shared/domain/status-model';
import { noticeKindOf, noticeMoments } from '../../src-shared/domain/status-notices';

/**
 * What a screen reader is told without a look (issue 23): a folder going in sync, offline and back,
 * uploads paused for money and resumed, a new lead: in the status model's words (issue 31). One polite live region (components/Announcer.tsx)
 * says the last sentence; `n` makes a repeat of the same words a change the reader notices.
 */
export const useAnnouncer = create<{ text: string; n: number; announce(text: string): void }>((set) => ({
  text: '',
  n: 0,
  announce: (text) => set((s) => ({ text, n: s.n + 1 })),
}));

/**
 * What a change of the app's state is said as (issue 31: the status model's words, not the announcer's
 * own): the notifications the core sends are said as they come (wire-events.ts); when the state they
 * told of is over (back online, the wallet topped up, the failed files retried), the new word is said.
 */
export function stateChange(prev: AppStatusModel | null, next: AppStatusModel): string | null {
  if (!prev || noticeKindOf(next)) return null;
  const after = noticeMoments(next);
  if (![...noticeMoments(prev)].some((k) => !after.has(k))) return null;
  return next.detail ? `${next.word}: ${next.detail}` : next.word;
}
