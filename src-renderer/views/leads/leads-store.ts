import { create } from 'zustand';
import type { LeadView, ReceiverView } from '../../../src-shared/contract/leads';
import { call, platform } from '../../api/core-ref';
import { matchesQuery } from './lead-search';

export type LeadFilter = 'all' | 'LEAD-CAPTURED' | 'HANDOFF-REQUESTED';

interface LeadsState {
  leads: LeadView[];
  receiver: ReceiverView | null;
  filter: LeadFilter;
  unhandledOnly: boolean;
  /** The search box (name, email, phone, text), searched by the core. */
  query: string;
  /** New leads seen while the view was not open (the sidebar may show it). */
  unseen: number;
  error: string | null;
  load(): Promise<void>;
  setFilter(f: LeadFilter): void;
  setUnhandledOnly(v: boolean): void;
  setQuery(q: string): void;
}

let wired = false;

export const useLeads = create<LeadsState>((set, get) => ({
  leads: [],
  receiver: null,
  filter: 'all',
  unhandledOnly: false,
  query: '',
  unseen: 0,
  error: null,
  async load() {
    wire();
    const { filter, unhandledOnly, query } = get();
    const r = await call('leads.list', {
      ...(filter !== 'all' ? { event: filter } : {}),
      ...(unhandledOnly ? { handled: false } : {}),
      ...(query.trim() ? { query: query.trim() } : {}),
    });
    if (!r.ok) return set({ error: r.error.message });
    // A slower answer to an older search must not replace a newer one.
    if (get().query !== query) return;
    set({ leads: r.value.leads, receiver: r.value.receiver, error: null, unseen: 0 });
  },
  setFilter(filter) {
    set({ filter });
    void get().load();
  },
  setUnhandledOnly(unhandledOnly) {
    set({ unhandledOnly });
    void get().load();
  },
  setQuery(query) {
    set({ query });
    void get().load();
  },
}));

const fits = (l: LeadView, s: LeadsState) =>
  (s.filter === 'all' || l.event === s.filter) &&
  (!s.unhandledOnly || !l.handledAt) &&
  (!s.query.trim() || matchesQuery(l, s.query));

function wire(): void {
  if (wired) return;
  wired = true;
  platform().core.subscribe((e) => {
    const s = useLeads.getState();
    if (e.event === 'leads.new') {
      useLeads.setState({
        leads: fits(e.payload, s) ? [e.payload, ...s.leads] : s.leads,
        unseen: s.unseen + 1,
      });
    } else if (e.event === 'leads.changed') {
      useLeads.setState({ leads: s.leads.map((l) => (l.id === e.payload.id ? e.payload : l)) });
    } else if (e.event === 'leads.receiver') {
      useLeads.setState({ receiver: e.payload });
    }
  });
}
