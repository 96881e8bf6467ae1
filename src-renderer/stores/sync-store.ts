import { create } from 'zustand';
import type { ActivityItem, Queue, SyncOverview } from '../../src-shared/contract';
import { call } from '../api/core-ref';

interface SyncStore {
  overview: SyncOverview | null;
  queue: Queue | null;
  activity: ActivityItem[];
  load(): Promise<void>;
  loadActivity(): Promise<void>;
}

export const useSync = create<SyncStore>((set) => ({
  overview: null,
  queue: null,
  activity: [],
  async load() {
    const [o, q] = await Promise.all([call('sync.overview', {}), call('sync.queue', {})]);
    set({ ...(o.ok ? { overview: o.value } : {}), ...(q.ok ? { queue: q.value } : {}) });
  },
  async loadActivity() {
    const r = await call('activity.list', { limit: 300 });
    if (r.ok) set({ activity: r.value });
  },
}));
