import { create } from 'zustand';
import type { OfficeSettings, OfficeStatus } from '../../../src-shared/contract';
import { call } from '../../api/core-ref';

/** The office as this desk sees it (office.changed) and its settings (docs/office.md). */
export const useOffice = create<{
  status: OfficeStatus | null;
  settings: OfficeSettings | null;
  load(): Promise<void>;
}>((set) => ({
  status: null,
  settings: null,
  async load() {
    const [st, se] = await Promise.all([call('office.status', {}), call('office.settings', {})]);
    set({ ...(st.ok ? { status: st.value } : {}), ...(se.ok ? { settings: se.value } : {}) });
  },
}));
