import type { LeadView } from '../../../src-shared/contract/leads';
import { foldForSearch } from '../../../src-shared/domain/search-fold';

const digitsOf = (text: string) => text.replace(/\D/g, '');

/**
 * The core's search (leads-store.ts), for a lead that arrives while a search is shown: every word
 * in name, email, phone, note, bot, business or visitor reference; a phone also by its digits.
 */
export function matchesQuery(lead: LeadView, query: string): boolean {
  const words = foldForSearch(query.trim()).split(/\s+/).filter(Boolean);
  const fields = [
    lead.name,
    lead.email,
    lead.phone,
    lead.note ?? '',
    lead.botName,
    lead.businessName,
    lead.visitorRef,
  ].join('\n');
  const folded = foldForSearch(fields);
  const phone = digitsOf(lead.phone);
  return words.every((w) => folded.includes(w) || (digitsOf(w).length >= 3 && phone.includes(digitsOf(w))));
}

/** An address a mail client can take, or null (a visitor may type anything into the email field). */
export function mailtoHref(email: string): string | null {
  const e = email.trim();
  return /^[^\s@<>()[\]\\,;:"?&#%]+@[^\s@<>()[\]\\,;:"?&#%]+\.[^\s@<>()[\]\\,;:"?&#%]+$/.test(e)
    ? `mailto:${encodeURI(e)}`
    : null;
}

/** A number a phone can dial (digits and a leading +), or null when there are too few digits. */
export function telHref(phone: string): string | null {
  const plus = phone.trim().startsWith('+') ? '+' : '';
  const digits = digitsOf(phone);
  return digits.length >= 3 && digits.length <= 20 ? `tel:${plus}${digits}` : null;
}
