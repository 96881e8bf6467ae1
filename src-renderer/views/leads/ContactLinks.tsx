import type { LeadView } from '../../../src-shared/contract/leads';
import { Icon } from '../../components/Icon';
import { copyText } from './copy';
import { mailtoHref, telHref } from './lead-search';

/**
 * Email and phone as links the system hands to the mail client and the dialler (`mailto:`, `tel:`;
 * the Electron shell opens them with the system, see harden.ts), each with a copy button. A value
 * that is not an address or a number stays plain text.
 */
export function ContactLinks({ lead }: { lead: LeadView }) {
  const mail = lead.email ? mailtoHref(lead.email) : null;
  const tel = lead.phone ? telHref(lead.phone) : null;
  const item = (label: 'Email' | 'Phone', value: string, href: string | null) => (
    <span className="lead-contact">
      {href ? (
        <a href={href} target="_blank" rel="noreferrer" className="lead-link">
          {value}
        </a>
      ) : (
        <span>{value}</span>
      )}
      <button
        type="button"
        className="btn ghost small icon-only"
        onClick={() => void copyText(label, value)}
        aria-label={`Copy ${label.toLowerCase()} ${value}`}
        title={`Copy ${label.toLowerCase()}`}
      >
        <Icon name="copy" />
      </button>
    </span>
  );
  if (!lead.email && !lead.phone) return <span className="muted">None given</span>;
  return (
    <span className="lead-contacts">
      {lead.email ? item('Email', lead.email, mail) : null}
      {lead.phone ? item('Phone', lead.phone, tel) : null}
    </span>
  );
}
