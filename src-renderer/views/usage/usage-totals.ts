import type { UsageSnapshot } from '../../../src-shared/api/file-hosting';
import { formatRupees } from '../../../src-shared/domain/money';
import { capitalised, codeAsWord } from '../../../src-shared/domain/words';

/** The rent of the days shown, by outcome: CHARGED was paid from the wallet, ARREARS was not. */
export interface OutcomeTotal {
  outcome: string;
  days: number;
  paise: number;
}

/** Totals per outcome, charged first, then arrears, then any other outcome the service sends. */
export function totalsByOutcome(days: readonly UsageSnapshot[]): OutcomeTotal[] {
  const by = new Map<string, OutcomeTotal>();
  for (const d of days) {
    const t = by.get(d.outcome) ?? { outcome: d.outcome, days: 0, paise: 0 };
    t.days++;
    t.paise += d.rent_paise;
    by.set(d.outcome, t);
  }
  const rank = (o: string) => (o === 'CHARGED' ? 0 : o === 'ARREARS' ? 1 : 2);
  return [...by.values()].sort(
    (a, b) => rank(a.outcome) - rank(b.outcome) || a.outcome.localeCompare(b.outcome),
  );
}

/**
 * "₹0.05 charged", "₹0.05 billed to arrears", or the service's own outcome word in lower case. A day
 * billed to arrears says what happened that day, not what is owed now: a top-up pays arrears first.
 */
export const OUTCOME_WORD: Record<string, string> = { CHARGED: 'charged', ARREARS: 'billed to arrears' };

/**
 * A day's outcome for the table's badge, in the header's words ("Charged", "Billed to arrears",
 * "Free"): the badge showed the service's code ("FREE", "ARREARS") beside the header's "free".
 */
export function outcomeText(outcome: string): string {
  const word = OUTCOME_WORD[outcome];
  return word ? capitalised(word) : codeAsWord(outcome);
}

/**
 * What is unpaid today, from the account snapshot (/me's arrears), never the sum of past days: after a
 * top-up paid them the days stay "billed to arrears" and nothing is unpaid. Null: nothing to say.
 */
export function unpaidNow(arrearsPaise: number | null, totals: readonly OutcomeTotal[]): string | null {
  if (arrearsPaise === null) return null;
  if (arrearsPaise > 0) return `${formatRupees(arrearsPaise)} unpaid now`;
  return totals.some((t) => t.outcome === 'ARREARS') ? 'nothing unpaid now' : null;
}
