import type { UsageSnapshot } from '../../../src-shared/api/file-hosting';

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

/** "₹0.05 charged", "₹0.05 unpaid (arrears)", or the service's own outcome word in lower case. */
export const OUTCOME_WORD: Record<string, string> = { CHARGED: 'charged', ARREARS: 'unpaid (arrears)' };
