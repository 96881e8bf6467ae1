import { create } from 'zustand';
import type { FileItem, FilesQuery } from '../../src-shared/contract';
import { call } from '../api/core-ref';

export const FILES_PAGE = 100;

export type FileFilters = Omit<FilesQuery, 'offset' | 'limit'>;

interface FilesStore {
  filters: FileFilters;
  total: number;
  buckets: string[];
  fetchedAt: number | null;
  offline: boolean;
  /** Pages of rows by page index; the list is virtual, so only the pages in view are loaded. */
  pages: Record<number, FileItem[]>;
  generation: number;
  setFilters(patch: Partial<FileFilters>): void;
  ensurePage(index: number): Promise<void>;
  reload(): void;
  refresh(): Promise<void>;
  /** Shows the local copy, then refreshes it from the service when older than `maxAgeMs`. */
  ensureFresh(maxAgeMs: number): Promise<void>;
}

const inFlight = new Set<string>();

export const useFiles = create<FilesStore>((set, get) => ({
  filters: {},
  total: 0,
  buckets: [],
  fetchedAt: null,
  offline: false,
  pages: {},
  generation: 0,
  setFilters(patch) {
    set((s) => ({ filters: { ...s.filters, ...patch }, pages: {}, generation: s.generation + 1 }));
    void get().ensurePage(0);
  },
  async ensurePage(index) {
    const { generation, filters, pages } = get();
    const key = `${generation}:${index}`;
    if (pages[index] || inFlight.has(key)) return;
    inFlight.add(key);
    const clean = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== '' && v !== undefined));
    const r = await call('files.query', { ...clean, offset: index * FILES_PAGE, limit: FILES_PAGE });
    inFlight.delete(key);
    if (!r.ok || get().generation !== generation) return;
    set((s) => ({
      pages: { ...s.pages, [index]: r.value.rows },
      total: r.value.total,
      buckets: r.value.buckets,
      fetchedAt: r.value.fetchedAt,
      offline: r.value.offline,
    }));
  },
  reload() {
    set((s) => ({ pages: {}, generation: s.generation + 1 }));
    void get().ensurePage(0);
  },
  async ensureFresh(maxAgeMs) {
    set((s) => ({ pages: {}, generation: s.generation + 1 }));
    await get().ensurePage(0);
    const at = get().fetchedAt;
    if (at === null || Date.now() - at > maxAgeMs) await get().refresh();
  },
  async refresh() {
    const r = await call('files.refresh', {});
    if (!r.ok) set({ offline: true });
    get().reload();
  },
}));
