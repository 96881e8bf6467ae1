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

describe('a day whose bytes the service measured differ from what the app’s index held', () => {
  const start = parseIst('2026-07-01 00:00')!;
  const rule: RentRule = { gb: 'binary', month: 'thirty', rounding: 'down' };
  // The service measures a day at its end (the next midnight).
  const end = (day: number) => start + day * DAY_MS;
  const file = (id: number, size: number, goneMs: number | null = null) => ({
    id,
    name: `f${id}.bin`,
    bucket: 'b',
    extension: 'bin',
    size,
    createdMs: start - 30 * DAY_MS,
    goneMs,
    folder: null,
  });
  const measured = (bytesOf: (day: number) => number): UsageDay[] =>
    Array.from({ length: 31 }, (_, i) => {
      const date = `2026-07-${String(i + 1).padStart(2, '0')}`;
      const bytes = bytesOf(i + 1);
      return {
        date,
        bytesUsed: bytes,
        filesCount: 1,
        rentPaise: ruleRent(rule, bytes, 500, date),
        outcome: 'CHARGED',
      };
    });
  // A read every 12 hours from the day before the month: the app watched all month.
  const reads: MeReadRun[] = Array.from({ length: 66 }, (_, i) => ({
    firstMs: start - DAY_MS + i * 12 * 3_600_000,
    lastMs: start - DAY_MS + i * 12 * 3_600_000,
    balancePaise: 100_000,
    arrearsPaise: 0,
    perGbMonthPaise: 500,
    bytesUsed: 0,
  }));
  const statement = (files: ReturnType<typeof file>[], days: UsageDay[]) =>
    buildStatement({
      account: { name: 'A', clientId: 1, service: 's' },
      month: '2026-07',
      nowMs: start + 40 * DAY_MS,
      reads,
      days,
      files,
      duplicates: { extraCopies: 0, bytes: 0 },
    });
  const bytesFlags = (s: ReturnType<typeof statement>) =>
    s.flags.filter((f) => f.kind === 'bytes').map((f) => [f.date, f.differenceBytes]);

  it('flags a day the service measured a file the index never held, by its bytes', () => {
    // 20 July: 7 GiB measured where the index held 6 (a file sent by another app, planted).
    const s = statement(
      [file(1, 4 * GIB), file(2, 2 * GIB)],
      measured((day) => (day === 20 ? 7 * GIB : 6 * GIB)),
    );
    expect(bytesFlags(s)).toEqual([['2026-07-20', GIB]]);
    expect(s.flags.find((f) => f.kind === 'bytes')!.sentence).toMatch(
      /measured 7 GiB, the app's index held 6 GiB live at that midnight \(more by 1 GiB/,
    );
  });

  it('does not flag a delete made elsewhere just before a midnight and noticed just after it', () => {
    // f2 deleted elsewhere late on 9 July, seen gone 90 s after that midnight: the 9th measured without it.
    const s = statement(
      [file(1, 4 * GIB), file(2, 2 * GIB, end(9) + 90_000)],
      measured((day) => (day >= 9 ? 4 * GIB : 6 * GIB)),
    );
    expect(bytesFlags(s)).toEqual([]);
    // Seen gone an hour after the midnight (the app was not looking): that day is told.
    const late = statement(
      [file(1, 4 * GIB), file(2, 2 * GIB, end(9) + 3_600_000)],
      measured((day) => (day >= 9 ? 4 * GIB : 6 * GIB)),
    );
    expect(bytesFlags(late)).toEqual([['2026-07-09', -2 * GIB]]);
  });
});
