import { useEffect, useRef, useState } from 'react';
import { type LeadDetail as Detail, type LeadView, wantsAPerson } from '../../../src-shared/contract/leads';
import { leadTimeLabel } from '../../../src-shared/domain/lead-words';
import { formatServiceTime } from '../../../src-shared/domain/time-format';
import { leadEventText } from '../../../src-shared/domain/words';
import { call } from '../../api/core-ref';
import { Icon } from '../../components/Icon';
import { formatTime } from '../../lib/format';
import { useUi } from '../../stores/ui-store';
import { ContactLinks } from './ContactLinks';
import { copyText } from './copy';

/** The payload scrolls: a tab stop, named, so a keyboard reaches and scrolls it (WCAG 2.1.1). */
const PAYLOAD_REGION = { tabIndex: 0, role: 'region', 'aria-label': 'The whole delivery as JSON' } as const;

function Item({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="small muted">{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/**
 * Everything a lead came with: the fields, and the whole delivery as the service sent it (the
 * webhook body, indented). A native <dialog>: Escape closes it, focus stays inside.
 */
export function LeadDetail({ lead, onClose }: { lead: LeadView; onClose(): void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [detail, setDetail] = useState<Detail | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    ref.current?.showModal();
  }, []);
  useEffect(() => {
    let live = true;
    void call('leads.get', { leadId: lead.id }).then((r) => {
      if (!live) return;
      if (r.ok) setDetail(r.value);
      else setError(r.error.message);
    });
    return () => {
      live = false;
    };
  }, [lead.id]);

  const handoff = wantsAPerson(lead);
  const sandbox = useUi((s) => s.session?.kind === 'sandbox');

  return (
    <dialog ref={ref} className="modal lead-detail" onClose={onClose} aria-labelledby="lead-detail-title">
      <div className="row">
        <h2 id="lead-detail-title" style={{ margin: 0 }}>
          {lead.name || 'No name given'}
        </h2>
        {handoff ? <span className="badge danger">Wants a person</span> : <span className="badge">Lead</span>}
        <span className="spacer" />
        <button type="button" className="btn ghost small" onClick={() => ref.current?.close()}>
          Close
        </button>
      </div>
      <dl className="lead-fields">
        <Item label="Contact">
          <ContactLinks lead={lead} />
        </Item>
        <Item label="Note">
          {lead.note ? <span style={{ whiteSpace: 'pre-wrap' }}>{lead.note}</span> : '—'}
        </Item>
        {/* The badge beside the name says it too; "Wants a person: Yes" beside "Event: Wants a person"
            said it three times. */}
        <Item label="Event">
          <span title={lead.event}>{leadEventText(lead.event)}</span>
        </Item>
        <Item label="Bot">{`${lead.botName} · ${lead.businessName}`}</Item>
        <Item label="Conversation">
          <span className="mono num">{lead.conversationId}</span>
        </Item>
        <Item label="Visitor">
          <span className="mono">{lead.visitorRef}</span>
        </Item>
        {/* Two clocks (issue 34): the conversation's start is the service's time (the sandbox's clock
            may be moved days on), its arrival this computer's; each says which. */}
        <Item label={leadTimeLabel('started', sandbox)}>{formatServiceTime(lead.startedAt)}</Item>
        <Item label={leadTimeLabel('received', sandbox)}>{formatTime(Date.parse(lead.receivedAt))}</Item>
        <Item label={leadTimeLabel('handled', sandbox)}>
          {lead.handledAt ? formatTime(Date.parse(lead.handledAt)) : 'Not yet'}
        </Item>
      </dl>
      <section aria-label="Whole delivery" className="stack" style={{ gap: '0.4rem' }}>
        <div className="row">
          <h3 style={{ margin: 0 }}>Whole delivery</h3>
          <span className="small muted">as the service sent it</span>
          <span className="spacer" />
          {detail ? (
            <button
              type="button"
              className="btn ghost small"
              onClick={() => void copyText('Delivery', detail.payload)}
            >
              <Icon name="copy" /> Copy JSON
            </button>
          ) : null}
        </div>
        {error ? (
          <span className="error-text" role="alert">
            {error}
          </span>
        ) : (
          <pre className="lead-payload" data-testid="lead-payload" {...PAYLOAD_REGION}>
            {detail?.payload ?? 'Loading…'}
          </pre>
        )}
      </section>
      <div className="row" style={{ justifyContent: 'flex-end', marginTop: '0.75rem' }}>
        <button
          type="button"
          className="btn"
          aria-pressed={!!lead.handledAt}
          onClick={async () => {
            const r = await call('leads.setHandled', { leadId: lead.id, handled: !lead.handledAt });
            if (!r.ok) useUi.getState().toast('error', r.error.message);
          }}
        >
          <Icon name="check" /> {lead.handledAt ? 'Handled' : 'Mark handled'}
        </button>
      </div>
    </dialog>
  );
}
