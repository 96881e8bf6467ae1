import { create } from 'zustand';
import type { CachedAccount, CachedUsage } from '../../src-shared/contract';
import { call } from '../api/core-ref';

type Range = 7 | 30 | 90;

interface AccountStore {
  account: CachedAccount | null;
  usage: Partial<Record<Range, CachedUsage>>;
  range: Range;
  loadAccount(refresh?: boolean): Promise<void>;
  loadUsage(range?: Range): Promise<void>;
}

export const useAccount = create<AccountStore>((set, get) => ({
  account: null,
  usage: {},
  range: 30,
  async loadAccount(refresh = true) {
    const r = await call('account.get', { refresh });
    if (r.ok) set({ account: r.value });
  },
  async loadUsage(range = get().range) {
    set({ range });
    const r = await call('usage.get', { days: range, refresh: true });
    if (r.ok) set((s) => ({ usage: { ...s.usage, [range]: r.value } }));
  },
}));
