import type { Paise } from '../money';

/**
 * The rules the service's documents leave open (file-hosting API section 8: "the size of a GB: not
 * shown"; how a month's price becomes a day's and how a part of a paisa is rounded are not said either).
 * A rule is one answer to each; `learnRule` finds the one that gives the charges the service made.
 * Whatever the rule, "a day whose rent is under one paisa is free" is the document's own.
 */
export interface RentRule {
  gb: 'binary' | 'decimal';
  /** A day is a 30th of the month's price, a part of that calendar month, or 12/365 of it. */
  month: 'thirty' | 'calendar' | 'year';
  rounding: 'down' | 'nearest' | 'up';
}

/** Every rule, the documented reading first (binary GB as the documents' own "200 MB", 30 days, down). */
export const RENT_RULES: readonly RentRule[] = (['binary', 'decimal'] as const).flatMap((gb) =>
  (['thirty', 'calendar', 'year'] as const).flatMap((month) =>
    (['down', 'nearest', 'up'] as const).map((rounding) => ({ gb, month, rounding })),
  ),
);

const daysInMonth = (usageDate: string): number => {
  const [y, m] = usageDate.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
};

/** The rent of one day under `rule`: bytes x price per GB-month, made a day's and rounded to paise. */
export function ruleRent(rule: RentRule, bytes: number, perGbMonthPaise: Paise, usageDate: string): Paise {
  if (bytes <= 0 || perGbMonthPaise <= 0) return 0;
  const gb = rule.gb === 'binary' ? 1024n ** 3n : 1_000_000_000n;
  // A day's price as a fraction num/den of paise (BigInt: bytes x price passes 2^53 on large accounts).
  let num = BigInt(bytes) * BigInt(perGbMonthPaise);
  let den = gb;
  if (rule.month === 'thirty') den *= 30n;
  else if (rule.month === 'calendar') den *= BigInt(daysInMonth(usageDate));
  else {
    num *= 12n;
    den *= 365n;
  }
  if (num < den) return 0; // under one paisa: free
  if (rule.rounding === 'down') return Number(num / den);
  if (rule.rounding === 'up') return Number((num + den - 1n) / den);
  return Number((2n * num + den) / (2n * den));
}

export function describeRule(rule: RentRule): string {
  const gb = rule.gb === 'binary' ? 'a GB is 2^30 bytes (binary)' : 'a GB is 10^9 bytes (decimal)';
  const month =
    rule.month === 'thirty'
      ? "a day is a 30th of the month's price"
      : rule.month === 'calendar'
        ? "a day is the month's price over that month's days"
        : "a day is 12/365 of the month's price";
  const rounding =
    rule.rounding === 'down'
      ? 'rounded down to whole paise'
      : rule.rounding === 'up'
        ? 'rounded up to whole paise'
        : 'rounded to the nearest paisa';
  return `${gb}, ${month}, ${rounding}; a day under one paisa is free`;
}

export const ruleKey = (r: RentRule): string => `${r.gb}/${r.month}/${r.rounding}`;

export interface SeenDay {
  date: string;
  bytesUsed: number;
  rentPaise: Paise;
  perGbMonthPaise: Paise;
}

export interface LearnedRule {
  rule: RentRule;
  /** Days whose charge the rule gives exactly, of the days that tell rules apart or not. */
  fits: number;
  of: number;
  /** Other rules that fit exactly as many days: the days seen cannot tell them from `rule`. */
  alsoFit: RentRule[];
}

/**
 * The rule that gives the most of the service's charges exactly; a tie goes to the documented reading
 * (the order of RENT_RULES). A day charged wrong fits no rule, so one bad day does not move the choice.
 */
export function learnRule(days: readonly SeenDay[]): LearnedRule {
  let best: { rule: RentRule; fits: number }[] = [];
  for (const rule of RENT_RULES) {
    const fits = days.filter(
      (d) => ruleRent(rule, d.bytesUsed, d.perGbMonthPaise, d.date) === d.rentPaise,
    ).length;
    if (!best.length || fits > best[0]!.fits) best = [{ rule, fits }];
    else if (fits === best[0]!.fits) best.push({ rule, fits });
  }
  const [first, ...rest] = best;
  return { rule: first!.rule, fits: first!.fits, of: days.length, alsoFit: rest.map((b) => b.rule) };
}
