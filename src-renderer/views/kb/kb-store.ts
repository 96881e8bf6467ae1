import { create } from 'zustand';
import type { KbBotView, KbEntryView, KbSnapshot } from '../../../src-shared/contract/kb';
import { call } from '../../api/core-ref';
import { sameData } from '../../lib/same-data';

export interface KbState {
  bots: KbBotView[];
  botId: number | null;
  snapshot: KbSnapshot | null;
  selectedId: number | null;
  /** 'new' while the editor holds an entry not yet created. */
  draft: boolean;
  /** Counts the drafts opened: each "New" is a fresh editor, and a reply for an older one is stale. */
  draftSeq: number;
  query: string;
  error: string | null;
  load(): Promise<void>;
  selectBot(botId: number): Promise<void>;
  select(entryId: number | null): void;
  newEntry(): void;
  setQuery(q: string): void;
}

/** The knowledge view's store, fed by `kb.changed` snapshots (through wire-events.ts): the view never polls. */
export const useKb = create<KbState>((set, get) => ({
  bots: [],
  botId: null,
  snapshot: null,
  selectedId: null,
  draft: false,
  draftSeq: 0,
  query: '',
  error: null,
  async load() {
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
      snapshot: s.botId === botId ? sharing(s.snapshot, r.value) : r.value,
      selectedId: s.botId === botId ? s.selectedId : null,
      draft: s.botId === botId ? s.draft : false,
      error: null,
    }));
  },
  select: (selectedId) => set({ selectedId, draft: false }),
  newEntry: () => set((s) => ({ selectedId: null, draft: true, draftSeq: s.draftSeq + 1 })),
  setQuery: (query) => set({ query }),
}));

/**
 * The new snapshot with the previous one's entry objects wherever an entry did not change, and the
 * previous entries array when none did: a sync round re-sends the whole snapshot for a new
 * "checked at", and the entry list (which selects the array) must not re-draw for it.
 */
function sharing(prev: KbSnapshot | null, next: KbSnapshot): KbSnapshot {
  if (!prev || prev.bot.id !== next.bot.id) return next;
  const byId = new Map<number, KbEntryView>(prev.entries.map((e) => [e.id, e]));
  let changed = prev.entries.length !== next.entries.length;
  const entries = next.entries.map((e, i) => {
    const old = byId.get(e.id);
    if (old && sameData(old, e)) {
      if (prev.entries[i] !== old) changed = true;
      return old;
    }
    changed = true;
    return e;
  });
  return { bot: next.bot, entries: changed ? entries : prev.entries };
}

/** `kb.changed`: one bot's snapshot (wire-events.ts feeds it). */
export function applyKbSnapshot(snapshot: KbSnapshot): void {
  const s = useKb.getState();
  const bots = s.bots.map((b) => (b.id === snapshot.bot.id ? snapshot.bot : b));
  useKb.setState({
    bots,
    ...(s.botId === snapshot.bot.id ? { snapshot: sharing(s.snapshot, snapshot) } : {}),
  });
}

/** `kb.botsChanged`: the list of bots; the first one is opened when none was. */
export function applyKbBots(bots: KbBotView[]): void {
  useKb.setState({ bots });
  if (useKb.getState().botId === null) void useKb.getState().load();
}
