import { create } from 'zustand';
import type { Session, Settings } from '../../src-shared/contract';
import type { AppError } from '../../src-shared/errors';
import type { LinkState } from '../api/ws-core';

export interface Toast {
  id: number;
  tone: 'info' | 'error';
  text: string;
  /** What it is about, when it can stop being true before it times out (`runway:arrears`). */
  about?: string;
}

interface UiState {
  view: string;
  link: LinkState;
  session: Session | null;
  settings: Settings | null;
  toasts: Toast[];
  go(view: string): void;
  toast(tone: Toast['tone'], text: string, about?: string): void;
  dismiss(id: number): void;
  /** Takes away the toasts about what no longer holds (a top-up paid the arrears it warned of). */
  dismissAbout(keep: (about: string) => boolean): void;
}

let toastId = 0;

export const useUi = create<UiState>((set) => ({
  view: 'folders',
  link: 'connecting',
  session: null,
  settings: null,
  toasts: [],
  go: (view) => set({ view }),
  toast: (tone, text, about) => {
    const id = ++toastId;
    set((s) => ({ toasts: [...s.toasts.slice(-3), { id, tone, text, ...(about ? { about } : {}) }] }));
    setTimeout(
      () => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
      tone === 'error' ? 8000 : 4000,
    );
  },
  dismiss: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
  dismissAbout: (keep) =>
    set((s) =>
      s.toasts.some((t) => t.about !== undefined && !keep(t.about))
        ? { toasts: s.toasts.filter((t) => t.about === undefined || keep(t.about)) }
        : s,
    ),
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
