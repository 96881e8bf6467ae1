import { describe, expect, it } from 'vitest';
import { rentShares } from '../../src-shared/domain/rent-shares';

const MiB = 2 ** 20;

// Each folder's share of the daily rent: whole paise, from the account's bytes, adding up to the rent.
describe('rent shares', () => {
  it.each([
    {
      why: 'the issue: a folder of 196 MiB of 198 MiB at ₹0.03 is ₹0.03, not ₹0.02',
      rent: 3,
      account: 198 * MiB,
      folders: [{ id: 1, bytes: 196 * MiB }],
      want: { folders: [3], other: 0, rounded: true },
    },
    {
      why: 'exact shares need no rounding',
      rent: 10,
      account: 100,
      folders: [
        { id: 1, bytes: 50 },
        { id: 2, bytes: 30 },
      ],
      want: { folders: [5, 3], other: 2, rounded: false },
    },
    {
      why: 'three equal thirds of 10 paise: the extra paisa to the first folder, never lost',
      rent: 10,
      account: 300,
      folders: [
        { id: 2, bytes: 100 },
        { id: 1, bytes: 100 },
        { id: 3, bytes: 100 },
      ],
      want: { folders: [4, 3, 3], other: 0, rounded: true },
    },
    {
      why: 'a tie between a folder and other files: the folder takes it',
      rent: 1,
      account: 200,
      folders: [{ id: 1, bytes: 100 }],
      want: { folders: [1], other: 0, rounded: true },
    },
    {
      why: "other files' larger remainder first; of two equal folders the lower id takes the last paisa",
      rent: 5,
      account: 1000,
      folders: [
        { id: 1, bytes: 130 },
        { id: 2, bytes: 130 },
      ],
      want: { folders: [1, 0], other: 4, rounded: true },
    },
    {
      why: 'folders holding more than the last /me counted: the folders are the whole',
      rent: 7,
      account: 100,
      folders: [
        { id: 1, bytes: 80 },
        { id: 2, bytes: 70 },
      ],
      want: { folders: [4, 3], other: 0, rounded: true },
    },
    {
      why: 'no rent: every share is nothing',
      rent: 0,
      account: 5 * MiB,
      folders: [{ id: 1, bytes: 4 * MiB }],
      want: { folders: [0], other: 0, rounded: false },
    },
    {
      why: 'an empty folder among full ones',
      rent: 9,
      account: 900,
      folders: [
        { id: 1, bytes: 0 },
        { id: 2, bytes: 899 },
      ],
      want: { folders: [0, 9], other: 0, rounded: true },
    },
    {
      why: 'no folders: all of it is other files',
      rent: 42,
      account: 10 * MiB,
      folders: [],
      want: { folders: [], other: 42, rounded: false },
    },
    {
      why: 'many small folders of a large account add up',
      rent: 1234,
      account: 50_000 * MiB,
      folders: Array.from({ length: 17 }, (_, i) => ({ id: i + 1, bytes: (i + 1) * 97 * MiB + 13 })),
      want: null,
    },
  ])('$why', ({ rent, account, folders, want }) => {
    const r = rentShares({ dailyRentPaise: rent, accountBytes: account, folders });
    expect(r.folders.reduce((s, f) => s + f.paise, 0) + r.other.paise).toBe(rent);
    expect(r.dailyRentPaise).toBe(rent);
    // Each share is its exact part rounded down or up, never further off.
    const whole = Math.max(
      account,
      folders.reduce((s, f) => s + f.bytes, 0),
    );
    for (const f of r.folders) {
      const exact = (f.bytes * rent) / whole;
      expect(f.paise).toBeGreaterThanOrEqual(Math.floor(exact));
      expect(f.paise).toBeLessThanOrEqual(Math.ceil(exact));
    }
    expect(r.other.bytes).toBe(Math.max(0, account - folders.reduce((s, f) => s + f.bytes, 0)));
    if (want) {
      expect(r.folders.map((f) => f.paise)).toEqual(want.folders);
      expect(r.other.paise).toBe(want.other);
      expect(r.rounded).toBe(want.rounded);
    }
  });

  it('the same input in any order gives the same shares (two windows say the same)', () => {
    const folders = [
      { id: 3, bytes: 100 },
      { id: 1, bytes: 100 },
      { id: 2, bytes: 100 },
    ];
    const a = rentShares({ dailyRentPaise: 10, accountBytes: 300, folders });
    const b = rentShares({ dailyRentPaise: 10, accountBytes: 300, folders: [...folders].reverse() });
    expect(a).toEqual(b);
  });
});
