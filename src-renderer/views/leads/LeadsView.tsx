import { useEffect } from 'react';
import type { LeadView } from '../../../src-shared/contract/leads';
import { call } from '../../api/core-ref';
import { Icon } from '../../components/Icon';
import { ViewHeader } from '../../components/ViewHeader';
import { formatTime } from '../../lib/format';
import { useUi } from '../../stores/ui-store';
import { type LeadFilter, useLeads } from './leads-store';
import '../kb/kb.css';

const FILTERS: [LeadFilter, string][] = [
  ['all', 'All'],
  ['LEAD-CAPTURED', 'Leads'],
  ['HANDOFF-REQUESTED', 'Handoffs'],
];

async function copy(label: string, text: string) {
  try {
    await navigator.clipboard.writeText(text);
    useUi.getState().toast('info', `${label} copied`);
  } catch {
    useUi
      .getState()
      .toast('error', `The ${label.toLowerCase()} could not be copied; select it and copy by hand.`);
  }
}

async function exportCsv(filter: LeadFilter) {
  const r = await call('leads.exportCsv', filter === 'all' ? {} : { event: filter });
  if (!r.ok) return useUi.getState().toast('error', r.error.message);
  const url = URL.createObjectURL(new Blob([r.value.csv], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = r.value.filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function LeadRow({ lead }: { lead: LeadView }) {
  const handoff = lead.askedForAPerson || lead.event === 'HANDOFF-REQUESTED';
  return (
    <tr className={lead.handledAt ? 'handled' : undefined} data-lead={lead.conversationId}>
      <td className="small muted num" style={{ whiteSpace: 'nowrap' }}>
        {formatTime(Date.parse(lead.receivedAt))}
      </td>
      <td>
        <div className="row" style={{ gap: '0.4rem' }}>
          <strong>{lead.name || 'No name given'}</strong>
          {handoff ? (
            <span className="badge danger">Wants a person</span>
          ) : (
            <span className="badge">Lead</span>
          )}
        </div>
        <div className="small muted">
          {lead.botName}
          {lead.note ? ` · ${lead.note}` : ''}
        </div>
      </td>
      <td>
        {lead.email ? (
          <button
            type="button"
            className="btn ghost small"
            onClick={() => void copy('Email', lead.email)}
            title="Copy email"
          >
            <Icon name="copy" /> {lead.email}
          </button>
        ) : null}
        {lead.phone ? (
          <button
            type="button"
            className="btn ghost small"
            onClick={() => void copy('Phone', lead.phone)}
            title="Copy phone"
          >
            <Icon name="copy" /> {lead.phone}
          </button>
        ) : null}
      </td>
      <td className="right">
        <button
          type="button"
          className="btn small"
          aria-pressed={!!lead.handledAt}
          onClick={() => void call('leads.setHandled', { leadId: lead.id, handled: !lead.handledAt })}
        >
          <Icon name="check" /> {lead.handledAt ? 'Handled' : 'Mark handled'}
        </button>
      </td>
    </tr>
  );
}

export function LeadsView() {
  const { leads, receiver, filter, unhandledOnly, error } = useLeads();
  useEffect(() => {
    void useLeads.getState().load();
  }, []);
  return (
    <>
      <ViewHeader title="Leads">
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
        <button type="button" className="btn" onClick={() => void exportCsv(filter)}>
          Export CSV
        </button>
      </ViewHeader>
      <div className="content stack">
        {error ? <div className="banner danger">{error}</div> : null}
        <div className="small muted" data-testid="receiver">
          {receiver?.running ? (
            <>
              Receiving at <span className="mono">{receiver.url}</span>
            </>
          ) : (
            'The lead receiver is not running.'
          )}
          {receiver?.error ? <span className="error-text"> {receiver.error.message}</span> : null}
        </div>
        <section className="card" style={{ padding: 0 }}>
          {leads.length === 0 ? (
            <div className="empty">No leads yet. They appear here the moment a bot sends one.</div>
          ) : (
            <table className="table leads-table" aria-label="Leads, newest first">
              <thead>
                <tr>
                  <th>Received</th>
                  <th>Who</th>
                  <th>Contact</th>
                  <th className="right">State</th>
                </tr>
              </thead>
              <tbody>
                {leads.map((l) => (
                  <LeadRow key={l.id} lead={l} />
                ))}
              </tbody>
            </table>
          )}
        </section>
      </div>
    </>
  );
}
