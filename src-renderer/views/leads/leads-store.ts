import { create } from 'zustand';
import { fitsLeadFilter, type LeadView, type ReceiverView } from '../../../src-shared/contract/leads';
import { call } from '../../api/core-ref';
import { sameData } from '../../lib/same-data';
import { matchesQuery } from './lead-search';

export type LeadFilter = 'all' | 'LEAD-CAPTURED' | 'HANDOFF-REQUESTED';

export interface LeadsState {
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

export const useLeads = create<LeadsState>((set, get) => ({
  leads: [],
  receiver: null,
  filter: 'all',
  unhandledOnly: false,
  query: '',
  unseen: 0,
  error: null,
  async load() {
    const { filter, unhandledOnly, query } = get();
    const r = await call('leads.list', {
      ...(filter !== 'all' ? { event: filter } : {}),
      ...(unhandledOnly ? { handled: false } : {}),
      ...(query.trim() ? { query: query.trim() } : {}),
    });
    if (!r.ok) return set({ error: r.error.message });
    // A slower answer to an older search must not replace a newer one.
    if (get().query !== query) return;
    // The same list read again (the view opened, many leads arrived elsewhere) keeps its array: the
    // table selects it and would re-draw every row for nothing.
    const leads = sameData(get().leads, r.value.leads) ? get().leads : r.value.leads;
    set({ leads, receiver: r.value.receiver, error: null, unseen: 0 });
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
  fitsLeadFilter(l, s.filter === 'all' ? undefined : s.filter) &&
  (!s.unhandledOnly || !l.handledAt) &&
  (!s.query.trim() || matchesQuery(l, s.query));

/** `leads.new`: shown at once when it fits the filter; counted as unseen until the view loads. */
export function applyNewLead(lead: LeadView): void {
  const s = useLeads.getState();
  useLeads.setState({ leads: fits(lead, s) ? [lead, ...s.leads] : s.leads, unseen: s.unseen + 1 });
}

/** `leads.arrived`: many at once (a desk catching up with its relay): the list is read again. */
export function applyLeadsArrived(count: number): void {
  const unseen = useLeads.getState().unseen + count;
  void useLeads
    .getState()
    .load()
    .then(() => useLeads.setState({ unseen }));
}

/** `leads.changed`: a lead marked handled (or not). */
export function applyLeadChanged(lead: LeadView): void {
  useLeads.setState((s) => ({ leads: s.leads.map((l) => (l.id === lead.id ? lead : l)) }));
}

/** `leads.receiver`: the webhook receiver's state. */
export function applyReceiver(receiver: ReceiverView): void {
  useLeads.setState({ receiver });
}
