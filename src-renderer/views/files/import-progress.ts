import { create } from 'zustand';

/** How far the import (or id check) under way is; fed by `urlImport.progress` (wire-events.ts). */
export const useImportProgress = create<{ done: number; total: number; name: string | null }>(() => ({
  done: 0,
  total: 0,
  name: null,
}));

export const applyImportProgress = (p: { name: string; done: number; total: number }): void =>
  useImportProgress.setState({ name: p.name, done: p.done, total: p.total });
