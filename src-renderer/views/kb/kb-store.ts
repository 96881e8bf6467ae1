import { create } from 'zustand';
import type { KbBotView, KbSnapshot } from '../../../src-shared/contract/kb';
import { call, platform } from '../../api/core-ref';

interface KbState {
  bots: KbBotView[];
  botId: number | null;
  snapshot: KbSnapshot | null;
  selectedId: number | null;
  /** 'new' while the editor holds an entry not yet created. */
  draft: boolean;
  query: string;
  error: string | null;
  load(): Promise<void>;
  selectBot(botId: number): Promise<void>;
  select(entryId: number | null): void;
  newEntry(): void;
  setQuery(q: string): void;
}

let wired = false;

/** The knowledge view's store, fed by `kb.changed` snapshots: the view never polls. */
export const useKb = create<KbState>((set, get) => ({
  bots: [],
  botId: null,
  snapshot: null,
  selectedId: null,
  draft: false,
  query: '',
  error: null,
  async load() {
    wire();
    const r = await call('kb.bots', {});
    if (!r.ok) return set({ error: r.error.message });
    const bots = r.value.bots;
    const current = get().botId;
    const botId = bots.some((b) => b.id === current) ? current : (bots[0]?.id ?? null);
    set({ bots, error: null });
    if (botId !== null) await get().selectBot(botId);
    else set({ botId: null, snapshot: null });
  },
  async selectBot(botId) {
    const r = await call('kb.entries', { botId });
    if (!r.ok) return set({ error: r.error.message });
    set((s) => ({
      botId,
      snapshot: r.value,
      selectedId: s.botId === botId ? s.selectedId : null,
      draft: s.botId === botId ? s.draft : false,
      error: null,
    }));
  },
  select: (selectedId) => set({ selectedId, draft: false }),
  newEntry: () => set({ selectedId: null, draft: true }),
  setQuery: (query) => set({ query }),
}));

function wire(): void {
  if (wired) return;
  wired = true;
  platform().core.subscribe((e) => {
    if (e.event === 'kb.changed') {
      const s = useKb.getState();
      const bots = s.bots.map((b) => (b.id === e.payload.bot.id ? e.payload.bot : b));
      useKb.setState({ bots, ...(s.botId === e.payload.bot.id ? { snapshot: e.payload } : {}) });
    } else if (e.event === 'kb.botsChanged') {
      useKb.setState({ bots: e.payload.bots });
      if (useKb.getState().botId === null) void useKb.getState().load();
    }
  });
  // The OS says the network is back: try at once rather than at the next retry.
  window.addEventListener('online', () => void call('kb.syncNow', {}));
}
