import { create } from 'zustand';
import type { Session, Settings } from '../../src-shared/contract';
import type { AppError } from '../../src-shared/errors';
import type { LinkState } from '../api/ws-core';

export interface Toast {
  id: number;
  tone: 'info' | 'error';
  text: string;
}

interface UiState {
  view: string;
  link: LinkState;
  session: Session | null;
  settings: Settings | null;
  toasts: Toast[];
  go(view: string): void;
  toast(tone: Toast['tone'], text: string): void;
  dismiss(id: number): void;
}

let toastId = 0;

export const useUi = create<UiState>((set) => ({
  view: 'folders',
  link: 'connecting',
  session: null,
  settings: null,
  toasts: [],
  go: (view) => set({ view }),
  toast: (tone, text) => {
    const id = ++toastId;
    set((s) => ({ toasts: [...s.toasts.slice(-3), { id, tone, text }] }));
    setTimeout(
      () => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
      tone === 'error' ? 8000 : 4000,
    );
  },
  dismiss: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
}));

/** Shows a refused command as a toast and returns null, so views can write `const v = await orToast(...)`. */
export async function orToast<T>(
  pending: Promise<{ ok: true; value: T } | { ok: false; error: AppError }>,
): Promise<T | null> {
  const r = await pending;
  if (r.ok) return r.value;
  useUi.getState().toast('error', r.error.message);
  return null;
}
