import { describe, expect, it } from 'vitest';
import { DAY_MS, parseIst } from '../../src-shared/domain/ist-time';
import {
  buildStatement,
  type MeReadRun,
  type UsageDay,
} from '../../src-shared/domain/statement/month-statement';
import { learnRule, type RentRule, ruleRent } from '../../src-shared/domain/statement/rent-rules';

const GIB = 1024 ** 3;
const daysOf = (rule: RentRule, sizes: number[], price = 500, month = '2026-07') =>
  sizes.map((bytes, i) => {
    const date = `${month}-${String(i + 1).padStart(2, '0')}`;
    return { date, bytesUsed: bytes, rentPaise: ruleRent(rule, bytes, price, date), perGbMonthPaise: price };
  });
const SIZES = [2 * GIB, 3.3 * GIB, 7.7e9, 11 * GIB, 1.5e9, 40 * GIB].map(Math.round);

describe('the rule the service applies, learnt from its charges', () => {
  it('tells a decimal GB, a calendar month and rounding up from the documented reading', () => {
    for (const rule of [
      { gb: 'decimal', month: 'thirty', rounding: 'down' },
      { gb: 'binary', month: 'calendar', rounding: 'down' },
      { gb: 'binary', month: 'thirty', rounding: 'up' },
      { gb: 'decimal', month: 'year', rounding: 'nearest' },
    ] as RentRule[]) {
      const learnt = learnRule(daysOf(rule, SIZES, 500, '2026-07'));
      expect(learnt.rule, JSON.stringify(rule)).toEqual(rule);
      expect(learnt.fits).toBe(SIZES.length);
    }
  });

  it('keeps the rule when one day is charged wrong, and a day under one paisa is free under every rule', () => {
    const days = daysOf({ gb: 'binary', month: 'thirty', rounding: 'down' }, SIZES);
    days[2]!.rentPaise += 9;
    expect(learnRule(days)).toMatchObject({
      rule: { gb: 'binary', month: 'thirty', rounding: 'down' },
      fits: 5,
      of: 6,
    });
    for (const rounding of ['down', 'nearest', 'up'] as const)
      expect(ruleRent({ gb: 'binary', month: 'thirty', rounding }, 60 * 1024 * 1024, 500, '2026-07-01')).toBe(
        0,
      );
  });
});

describe('the wallet of a month from the reads', () => {
  const start = parseIst('2026-07-01 00:00')!;
  const days: UsageDay[] = Array.from({ length: 31 }, (_, i) => ({
    date: `2026-07-${String(i + 1).padStart(2, '0')}`,
    bytesUsed: 6 * GIB,
    filesCount: 3,
    rentPaise: 100,
    outcome: 'CHARGED',
  }));
  days.push({ date: '2026-06-30', bytesUsed: 6 * GIB, filesCount: 3, rentPaise: 100, outcome: 'CHARGED' });
  const read = (t: number, balance: number, arrears = 0): MeReadRun => ({
    firstMs: t,
    lastMs: t,
    balancePaise: balance,
    arrearsPaise: arrears,
    perGbMonthPaise: 500,
    bytesUsed: 6 * GIB,
  });
  const base = {
    account: { name: 'A', clientId: 1, service: 's' },
    month: '2026-07',
    nowMs: start + 40 * DAY_MS,
    days,
    files: [],
    duplicates: { extraCopies: 0, bytes: 0 },
  };

  it('infers a credit, with what it paid of the arrears, and balances', () => {
    // Noon of 30 June: 150 paise. Two midnights later 0 and 50 in arrears; then a top-up of 1,000 in
    // the window to noon of 3 July, after that day's charge: 850.
    const s = buildStatement({
      ...base,
      reads: [
        read(start - DAY_MS / 2, 150),
        read(start + 1.5 * DAY_MS, 0, 50),
        read(start + 2.5 * DAY_MS, 850),
      ],
    });
    expect(s.openingPaise).toBe(50);
    expect(s.credits.map((c) => [c.amountPaise, c.arrearsPaidPaise])).toEqual([[1_000, 150]]);
    expect(s.days[0]!.arrearsBookedPaise).toBe(50);
    expect(s.rentPaise).toBe(3_100);
    expect(s.closingPaise).toBe(850 - 29 * 100);
    expect(s.balances).toBe(true);
  });

  it('says the opening is unknown when the app read nothing before the month', () => {
    const s = buildStatement({ ...base, reads: [read(start + 1.5 * DAY_MS, 500)] });
    expect(s.openingPaise).toBeNull();
    expect(s.balances).toBe(false);
    expect(s.unknowns.join(' ')).toMatch(/opening balance is unknown/);
    expect(s.days[0]!.own).toBeNull();
    expect(s.unknowns.join(' ')).toMatch(/The app was not running before/);
  });
});
