import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatRupees, rentSavedPaise } from '../../src-shared/domain/money';
import { rentSavingSentence } from '../../src-shared/domain/rent-saving';

const MIB = 2 ** 20;
const GIB = 2 ** 30;

describe('rentSavingSentence', () => {
  it('24 MiB of a 24 MiB account at ₹5/GiB-month: under a paisa a day, its share a month given', () => {
    const s = rentSavingSentence(24 * MIB, 24 * MIB, 500);
    expect(s).not.toContain('Saves ₹0.00');
    expect(s).toContain('Saves less than ₹0.01 a day');
    expect(s).toContain('the daily charge stays ₹0.00');
    // 24/1024 GiB x 500 paise = 11.7 paise a month.
    expect(s).toContain('about ₹0.12 a month');
  });

  it('one file is "This file\'s share", several "These files\'" (issue 34)', () => {
    expect(rentSavingSentence(24 * MIB, MIB, 500, 1)).toContain("This file's share of the rent");
    expect(rentSavingSentence(24 * MIB, MIB, 500, 2)).toContain("These files' share of the rent");
  });

  it('a delete that moves the daily charge gives it a day and a month (30 days)', () => {
    // 60 GiB at 500: 1000 paise a day; 30 GiB off leaves 500.
    expect(rentSavingSentence(60 * GIB, 30 * GIB, 500)).toContain(
      'Saves ₹5.00 of rent a day, ₹150.00 a month',
    );
  });

  it('a tiny delete says less than ₹0.01 a month, nothing deleted or free storage saves no rent', () => {
    expect(rentSavingSentence(GIB, 1024, 500)).toContain('less than ₹0.01 a month');
    expect(rentSavingSentence(GIB, 0, 500)).toMatch(/^Saves no rent/);
    expect(rentSavingSentence(GIB, GIB, 0)).toMatch(/^Saves no rent/);
  });

  it('never says ₹0.00 a day, and a day figure it gives is the billed difference', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 42 }),
        fc.integer({ min: 1, max: 2 ** 42 }),
        fc.integer({ min: 1, max: 100_000 }),
        (used, del, price) => {
          const bytes = Math.min(del, Math.max(used, 1));
          const s = rentSavingSentence(Math.max(used, bytes), bytes, price);
          expect(s).not.toContain('₹0.00 of rent a day');
          const day = rentSavedPaise(Math.max(used, bytes), bytes, price);
          if (day > 0)
            expect(s).toContain(
              `Saves ${formatRupees(day)} of rent a day, ${formatRupees(day * 30)} a month`,
            );
          else expect(s).toContain('less than ₹0.01 a day');
        },
      ),
    );
  });
});
