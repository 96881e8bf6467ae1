import { memo, useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { type LeadView, wantsAPerson } from '../../../src-shared/contract/leads';
import { LEAD_KIND_WORDS, leadClock, leadKindText } from '../../../src-shared/domain/lead-words';
import { call } from '../../api/core-ref';
import { Icon } from '../../components/Icon';
import { SCROLL_REGION, ViewHeader } from '../../components/ViewHeader';
import { WordBadge } from '../../components/WordBadge';
import { formatTime } from '../../lib/format';
import { RenderCount } from '../../lib/render-count';
import { useAppStatus, useLeadsFacts } from '../../stores/app-status';
import { useUi } from '../../stores/ui-store';
import { ContactLinks } from './ContactLinks';
import { LeadDetail } from './LeadDetail';
import { type LeadFilter, type LeadsState, useLeads } from './leads-store';
import { HandledBy } from './relay/HandledBy';
import { LeadSourcePanel } from './relay/LeadSourcePanel';
import '../kb/kb.css';
import './leads.css';

const FILTERS: [LeadFilter, string][] = [
  ['all', 'All'],
  // The badge's words (and the CSV's event_in_words): the filter selects exactly the rows badged so
  // (`wantsAPerson`).
  ['LEAD-CAPTURED', LEAD_KIND_WORDS.lead.filter],
  ['HANDOFF-REQUESTED', LEAD_KIND_WORDS.person.filter],
];

async function exportCsv(filter: LeadFilter, query: string) {
  const r = await call('leads.exportCsv', {
    ...(filter === 'all' ? {} : { event: filter }),
    ...(query.trim() ? { query: query.trim() } : {}),
  });
  if (!r.ok) return useUi.getState().toast('error', r.error.message);
  const url = URL.createObjectURL(new Blob([r.value.csv], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = r.value.filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function LeadRow({ lead, onOpen }: { lead: LeadView; onOpen(lead: LeadView): void }) {
  const handoff = wantsAPerson(lead);
  return (
    <tr className={lead.handledAt ? 'handled' : undefined} data-lead={lead.conversationId}>
      <td className="small muted num lead-received">{formatTime(Date.parse(lead.receivedAt))}</td>
      <td className="lead-who">
        <div className="row" style={{ gap: '0.4rem' }}>
          <button
            type="button"
            className="lead-open"
            onClick={() => onOpen(lead)}
            aria-label={`Details of ${lead.name || 'the lead without a name'}`}
          >
            {lead.name || 'No name given'}
          </button>
          <span className={handoff ? 'badge danger' : 'badge'}>{leadKindText(handoff)}</span>
        </div>
        <div className="small muted lead-note">
          {lead.botName}
          {lead.note ? ` · ${lead.note}` : ''}
        </div>
      </td>
      <td className="lead-contact-cell">
        <ContactLinks lead={lead} />
      </td>
      <td className="right lead-state">
        <button
          type="button"
          className="btn small"
          aria-pressed={!!lead.handledAt}
          onClick={() => void call('leads.setHandled', { leadId: lead.id, handled: !lead.handledAt })}
        >
          <Icon name="check" /> {lead.handledAt ? 'Handled' : 'Mark handled'}
        </button>
        <HandledBy lead={lead} />
      </td>
    </tr>
  );
}

// The view draws the header, the search and the source panel; the table subscribes to the leads
// alone, so a receiver change or a lead the filter hides (counted unseen) leaves its rows alone.
const viewSlice = (s: LeadsState) => ({
  receiver: s.receiver,
  filter: s.filter,
  unhandledOnly: s.unhandledOnly,
  query: s.query,
  error: s.error,
});
const shownLeads = (s: LeadsState) => s.leads;
/** The search, for the empty table's words only: with leads shown, typing does not re-draw them. */
const emptyQuery = (s: LeadsState) => (s.leads.length === 0 ? s.query.trim() : '');

const LeadsTable = memo(function LeadsTable({ onOpen }: { onOpen(lead: LeadView): void }) {
  const leads = useLeads(shownLeads);
  const query = useLeads(emptyQuery);
  return (
    <RenderCount id="leads-table">
      <section className="card" style={{ padding: 0 }}>
        {leads.length === 0 ? (
          <div className="empty">
            {query
              ? `No lead matches “${query}”.`
              : 'No leads yet. They appear here the moment a bot sends one.'}
          </div>
        ) : (
          <table className="table leads-table" aria-label="Leads, newest first">
            <thead>
              <tr>
                <th title={`Received, on ${leadClock('received', false)}`}>Received</th>
                <th>Who</th>
                <th>Contact</th>
                <th className="right">State</th>
              </tr>
            </thead>
            <tbody>
              {leads.map((l) => (
                <LeadRow key={l.id} lead={l} onOpen={onOpen} />
              ))}
            </tbody>
          </table>
        )}
      </section>
    </RenderCount>
  );
});

/** Where leads come from and whether that link works: the status model's word, as the sidebar says it. */
export function LeadsStatusBadge() {
  useLeadsFacts();
  const leads = useAppStatus().leads;
  if (!leads) return null;
  return (
    <WordBadge
      tone={leads.tone}
      word={leads.word}
      detail={leads.detail}
      testId="leads-state"
      data={{ kind: leads.kind }}
    />
  );
}

export function LeadsView() {
  const { receiver, filter, unhandledOnly, query, error } = useLeads(useShallow(viewSlice));
  const [opened, setOpened] = useState<LeadView | null>(null);
  useEffect(() => {
    void useLeads.getState().load();
  }, []);
  // The open lead as the store has it now (marked handled meanwhile...), else as it was opened.
  const detail = useLeads((s) => (opened ? (s.leads.find((l) => l.id === opened.id) ?? opened) : null));
  return (
    <>
      <ViewHeader title="Leads" status={<LeadsStatusBadge />}>
        {/* biome-ignore lint/a11y/useSemanticElements: the same segmented control as the Usage view */}
        <div className="segmented" role="group" aria-label="Show">
          {FILTERS.map(([f, label]) => (
            <button
              key={f}
              type="button"
              aria-pressed={filter === f}
              onClick={() => useLeads.getState().setFilter(f)}
            >
              {label}
            </button>
          ))}
        </div>
        <label className="row small">
          <input
            type="checkbox"
            checked={unhandledOnly}
            onChange={(e) => useLeads.getState().setUnhandledOnly(e.target.checked)}
          />
          Not handled only
        </label>
        <button type="button" className="btn" onClick={() => void exportCsv(filter, query)}>
          Export CSV
        </button>
      </ViewHeader>
      <div className="content stack" {...SCROLL_REGION}>
        {error ? <div className="banner danger">{error}</div> : null}
        <input
          type="search"
          aria-label="Search leads"
          placeholder="Search name, email, phone or text"
          value={query}
          onChange={(e) => useLeads.getState().setQuery(e.target.value)}
        />
        <LeadSourcePanel receiver={receiver} />
        <LeadsTable onOpen={setOpened} />
      </div>
      {detail ? <LeadDetail key={detail.id} lead={detail} onClose={() => setOpened(null)} /> : null}
    </>
  );
}
