import { create } from 'zustand';
import type {
  BulkDeleteJob,
  IndexedFile,
  IndexFilter,
  IndexSort,
  IndexStatus,
  Selection,
} from '../../../src-shared/contract';
import { call } from '../../api/core-ref';

/** Rows asked of the core at a time; the list is virtual, so only the pages in view are read. */
export const INDEX_PAGE = 100;

export type Order = 'asc' | 'desc';

/**
 * What is selected: picked rows (`ids`), or everything the filter matches (`all`, the whole
 * index's matches, not only the loaded rows) less the rows unticked since.
 */
export type Picked = { mode: 'ids'; ids: Set<number> } | { mode: 'all'; except: Set<number> };

export interface IndexViewStore {
  filter: IndexFilter;
  sort: IndexSort;
  order: Order;
  total: number;
  bytes: number;
  status: IndexStatus | null;
  buckets: string[];
  pages: Record<number, IndexedFile[]>;
  generation: number;
  /** The last error of a read (e.g. not connected). */
  error: string | null;
  picked: Picked;
  /** Where the last plain or ctrl click was: a shift-click selects from here. */
  anchor: number | null;
  /** The file shown in the preview (the last one clicked). */
  focused: IndexedFile | null;
  job: BulkDeleteJob | null;

  setFilter(patch: Partial<IndexFilter>): void;
  sortBy(sort: IndexSort): void;
  ensurePage(index: number): Promise<void>;
  reload(): void;
  /**
   * The index may have changed (`files.index.changed`): reads the summary and the first page, and
   * reloads only when they differ from what is drawn; otherwise only the status moves.
   */
  revalidate(): void;
  rowAt(i: number): IndexedFile | undefined;
  click(i: number, how: { shift: boolean; toggle: boolean }): Promise<void>;
  selectAllMatching(): void;
  clearSelection(): void;
  isPicked(id: number): boolean;
  pickedCount(): number;
  selection(): Selection | null;
}

const inFlight = new Set<string>();

/** Only the filter's fields that say something: an empty search or bucket is no condition. */
export function cleanFilter(f: IndexFilter): IndexFilter {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(f)) {
    if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
  }
  return out as IndexFilter;
}

const DEFAULT_ORDER: Record<IndexSort, Order> = { date: 'desc', name: 'asc', size: 'desc', bucket: 'asc' };

export const useIndexView = create<IndexViewStore>((set, get) => ({
  filter: {},
  sort: 'date',
  order: 'desc',
  total: 0,
  bytes: 0,
  status: null,
  buckets: [],
  pages: {},
  generation: 0,
  error: null,
  picked: { mode: 'ids', ids: new Set() },
  anchor: null,
  focused: null,
  job: null,

  setFilter(patch) {
    set((s) => ({
      filter: { ...s.filter, ...patch },
      picked: { mode: 'ids', ids: new Set() },
      anchor: null,
    }));
    get().reload();
  },
  sortBy(sort) {
    set((s) => ({
      sort,
      order: s.sort === sort ? (s.order === 'asc' ? 'desc' : 'asc') : DEFAULT_ORDER[sort],
      anchor: null,
    }));
    get().reload();
  },
  async ensurePage(index) {
    const { generation, filter, sort, order, pages } = get();
    const key = `${generation}:${index}`;
    if (pages[index] || inFlight.has(key)) return;
    inFlight.add(key);
    const r = await call('files.index.query', {
      ...cleanFilter(filter),
      sort,
      order,
      limit: INDEX_PAGE,
      offset: index * INDEX_PAGE,
    });
    inFlight.delete(key);
    if (get().generation !== generation) return;
    if (!r.ok) return set({ error: r.error.message });
    set((s) => ({ pages: { ...s.pages, [index]: r.value.files }, error: null }));
  },
  reload() {
    const generation = get().generation + 1;
    set({ pages: {}, generation });
    const filter = cleanFilter(get().filter);
    void call('files.index.summary', filter).then((r) => {
      if (get().generation !== generation) return;
      if (r.ok) set({ total: r.value.count, bytes: r.value.bytes, status: r.value.status, error: null });
      else set({ error: r.error.message });
    });
    void call('files.index.buckets', {}).then((r) => {
      if (r.ok) set({ buckets: r.value.buckets });
    });
    void get().ensurePage(0);
  },
  revalidate() {
    // The index keeper reads the listing every 45 s and says so each time (issue 31): a reload on each
    // cleared the pages and drew the table twice, a flash of empty rows in an idle Files view.
    const { generation, filter, sort, order } = get();
    const f = cleanFilter(filter);
    void Promise.all([
      call('files.index.summary', f),
      call('files.index.query', { ...f, sort, order, limit: INDEX_PAGE, offset: 0 }),
    ]).then(([sum, first]) => {
      const now = get();
      if (now.generation !== generation) return;
      const same =
        sum.ok &&
        first.ok &&
        now.error === null &&
        sum.value.count === now.total &&
        sum.value.bytes === now.bytes &&
        now.pages[0] !== undefined &&
        JSON.stringify(now.pages[0]) === JSON.stringify(first.value.files);
      if (same) set({ status: sum.value.status });
      else get().reload();
    });
  },
  rowAt(i) {
    return rowIn(get().pages, i);
  },
  async click(i, how) {
    const file = get().rowAt(i);
    if (!file) return;
    const { picked, anchor } = get();
    if (how.shift && anchor !== null) {
      const [from, to] = anchor < i ? [anchor, i] : [i, anchor];
      // The range may cross pages not read yet (a long jump with the scroll bar).
      for (let p = Math.floor(from / INDEX_PAGE); p <= Math.floor(to / INDEX_PAGE); p++)
        await get().ensurePage(p);
      const ids = new Set(picked.mode === 'ids' && how.toggle ? picked.ids : []);
      for (let k = from; k <= to; k++) {
        const f = get().rowAt(k);
        if (f) ids.add(f.id);
      }
      set({ picked: { mode: 'ids', ids }, focused: file });
      return;
    }
    if (how.toggle) {
      if (picked.mode === 'all') {
        const except = new Set(picked.except);
        if (except.has(file.id)) except.delete(file.id);
        else except.add(file.id);
        set({ picked: { mode: 'all', except }, anchor: i, focused: file });
      } else {
        const ids = new Set(picked.ids);
        if (ids.has(file.id)) ids.delete(file.id);
        else ids.add(file.id);
        set({ picked: { mode: 'ids', ids }, anchor: i, focused: file });
      }
      return;
    }
    set({ picked: { mode: 'ids', ids: new Set([file.id]) }, anchor: i, focused: file });
  },
  selectAllMatching() {
    set({ picked: { mode: 'all', except: new Set() } });
  },
  clearSelection() {
    set({ picked: { mode: 'ids', ids: new Set() }, anchor: null, focused: null });
  },
  isPicked(id) {
    return isPicked(get().picked, id);
  },
  pickedCount() {
    return pickedCount(get().picked, get().total);
  },
  selection() {
    return selectionOf(get().picked, get().filter);
  },
}));

// Pure forms of the questions above, for a component that subscribes to `picked` (and `total`,
// `filter`) and must re-render when they change, which a call to get() inside render would not.
export const isPicked = (p: Picked, id: number): boolean =>
  p.mode === 'ids' ? p.ids.has(id) : !p.except.has(id);

export const pickedCount = (p: Picked, total: number): number =>
  p.mode === 'ids' ? p.ids.size : Math.max(0, total - p.except.size);

export function selectionOf(p: Picked, filter: IndexFilter): Selection | null {
  if (p.mode === 'ids') return p.ids.size > 0 ? { ids: [...p.ids] } : null;
  return { filter: cleanFilter(filter), except: [...p.except] };
}

/** The loaded row at index `i`, from the store's pages. */
export const rowIn = (pages: IndexViewStore['pages'], i: number): IndexedFile | undefined =>
  pages[Math.floor(i / INDEX_PAGE)]?.[i % INDEX_PAGE];
