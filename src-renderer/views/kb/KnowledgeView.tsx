import { memo, useEffect, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { KbEntryView } from '../../../src-shared/contract/kb';
import type { EntryLinksView } from '../../../src-shared/contract/links';
import { KB_MAX_ENTRIES } from '../../../src-shared/domain/limits';
import { call } from '../../api/core-ref';
import { Icon } from '../../components/Icon';
import { SCROLL_REGION, ViewHeader } from '../../components/ViewHeader';
import { RenderCount } from '../../lib/render-count';
import { AddBotForm } from './AddBotForm';
import { BotSettings } from './BotSettings';
import { ConflictView } from './ConflictView';
import { EntryEditor } from './EntryEditor';
import { useEntryLinks } from './entry-links';
import { type KbState, useKb } from './kb-store';
import { EntryLinkBadge, EntryLinkNotice } from './LinkNotice';
import { BotSyncLine, EntryStateBadge } from './SyncBadge';
import { UndoDelete } from './UndoDelete';
import './kb.css';

const matches = (e: KbEntryView, q: string) =>
  !q || e.title.toLowerCase().includes(q) || e.description.toLowerCase().includes(q);

const NO_ENTRIES: readonly KbEntryView[] = [];

// The view draws the bot, the editor and the undo bar; the entry list subscribes to the entries, the
// search and the selection itself. The entries array is kept while no entry changes (kb-store's
// sharing), so a sync round's "checked at" or a draft opened leaves the list alone.
const viewSlice = (s: KbState) => ({
  bots: s.bots,
  botId: s.botId,
  bot: s.snapshot?.bot ?? null,
  entries: s.snapshot?.entries ?? NO_ENTRIES,
  selectedId: s.selectedId,
  draft: s.draft,
  draftSeq: s.draftSeq,
  error: s.error,
});
const listSlice = (s: KbState) => ({
  entries: s.snapshot?.entries ?? NO_ENTRIES,
  query: s.query,
  selectedId: s.selectedId,
});

export function KnowledgeView() {
  const { bots, botId, bot, entries, selectedId, draft, draftSeq, error } = useKb(useShallow(viewSlice));
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    void useKb.getState().load();
  }, []);
  // The bot shown was removed (here, or with the sandbox when an account was connected).
  useEffect(() => {
    if (botId !== null && !bots.some((b) => b.id === botId)) void useKb.getState().load();
  }, [bots, botId]);

  const selected = entries.find((e) => e.id === selectedId) ?? null;
  const links = useEntryLinks(bot?.id, bot ? entries : undefined);

  return (
    <>
      <ViewHeader title="Knowledge">
        {bots.length > 1 ? (
          <select
            aria-label="Bot"
            value={botId ?? ''}
            onChange={(e) => {
              setEditing(false);
              void useKb.getState().selectBot(Number(e.target.value));
            }}
          >
            {bots.map((b) => (
              <option key={b.id} value={b.id}>
                {b.name}
                {b.isSandbox ? ' (sandbox)' : ''}
              </option>
            ))}
          </select>
        ) : null}
        {bot ? (
          <button type="button" className="btn" onClick={() => void call('kb.syncNow', { botId: bot.id })}>
            <Icon name="refresh" /> Sync now
          </button>
        ) : null}
        <button type="button" className="btn" onClick={() => setAdding(true)}>
          <Icon name="plus" /> Add bot
        </button>
      </ViewHeader>
      <div className="content stack" {...SCROLL_REGION}>
        {error ? <div className="banner danger">{error}</div> : null}
        {adding ? <AddBotForm onDone={() => setAdding(false)} /> : null}
        {!bot ? (
          <div className="card empty">
            No bot yet. With the sandbox the demo bot appears by itself; for a real account, add a bot.
          </div>
        ) : (
          <>
            <div className="row kb-bot-row">
              <strong>{bot.name}</strong>
              {bot.isSandbox ? <span className="badge">Sandbox</span> : null}
              <span className="small muted mono">{bot.baseUrl}</span>
              <button
                type="button"
                className="btn ghost small"
                aria-expanded={editing}
                onClick={() => setEditing((v) => !v)}
              >
                <Icon name="settings" /> Bot settings
              </button>
              <span className="spacer" />
              <BotSyncLine bot={bot} />
            </div>
            {editing ? <BotSettings key={bot.id} bot={bot} onDone={() => setEditing(false)} /> : null}
            <div className="kb-layout">
              <EntryList links={links} />
              <div className="kb-detail stack">
                {selected ? <EntryLinkNotice links={links.get(selected.id)} /> : null}
                {selected?.state === 'conflict' ? (
                  <ConflictView key={`c${selected.id}`} entry={selected} />
                ) : selected || draft ? (
                  <EntryEditor key={selected?.id ?? `new-${draftSeq}`} botId={bot.id} entry={selected} />
                ) : (
                  <div className="card empty">Pick an entry to edit, or add a new one.</div>
                )}
              </div>
            </div>
            <UndoDelete entries={entries} />
          </>
        )}
      </div>
    </>
  );
}

const EntryList = memo(function EntryList({ links }: { links: Map<number, EntryLinksView> }) {
  const { entries: all, query, selectedId } = useKb(useShallow(listSlice));
  const q = query.trim().toLowerCase();
  const entries = useMemo(() => all.filter((e) => matches(e, q)), [all, q]);
  return (
    <RenderCount id="kb-entries">
      <section className="card stack kb-list" aria-label="Entries">
        <div className="row">
          <input
            type="search"
            aria-label="Search entries"
            placeholder="Search titles and text"
            value={query}
            onChange={(e) => useKb.getState().setQuery(e.target.value)}
            style={{ flex: 1 }}
          />
          <button type="button" className="btn primary" onClick={() => useKb.getState().newEntry()}>
            <Icon name="plus" /> New
          </button>
        </div>
        <span className="small muted">
          {all.filter((e) => !e.deleted).length} of {KB_MAX_ENTRIES} entries
        </span>
        {entries.length === 0 ? (
          <div className="empty">{q ? 'No entry matches.' : 'No entries yet.'}</div>
        ) : (
          <ul className="kb-entries">
            {entries.map((e) => (
              <li key={e.id}>
                <button
                  type="button"
                  className="kb-entry"
                  aria-current={e.id === selectedId ? 'true' : undefined}
                  data-entry-title={e.title}
                  onClick={() => useKb.getState().select(e.id)}
                >
                  <span className={`kb-entry-title${e.deleted ? ' deleted' : ''}`}>{e.title}</span>
                  <EntryStateBadge state={e.state} deleted={e.deleted} />
                  <span className="small muted kb-entry-text">{e.description}</span>
                  <EntryLinkBadge links={links.get(e.id)} />
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </RenderCount>
  );
});
