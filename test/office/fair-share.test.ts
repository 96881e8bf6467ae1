import { describe, expect, it } from 'vitest';
import { pickNext } from '../../src-main/core/office/fair-share';

const sync = { now: 0, sync: 1, bg: 0 };

describe('pickNext: the next place of the window', () => {
  it('goes to the desk with the fewest requests in the window, and between equals to the one that waited longest', () => {
    const pick = (lastA: number, lastB: number) =>
      pickNext([
        { id: 'a', want: sync, inWindow: 3, lastAt: lastA },
        { id: 'b', want: sync, inWindow: 3, lastAt: lastB },
        { id: 'c', want: sync, inWindow: 4, lastAt: 0 },
      ])?.id;
    // By id alone, 'a' went first every time, and the desks of the highest ids waited past their equal share.
    expect(pick(2_000, 1_000)).toBe('b');
    expect(pick(1_000, 2_000)).toBe('a');
    expect(pick(1_000, 1_000)).toBe('a');
  });

  it('serves a higher class first, whoever has fewer places', () => {
    const next = pickNext([
      { id: 'a', want: sync, inWindow: 0 },
      { id: 'b', want: { now: 1, sync: 0, bg: 0 }, inWindow: 9 },
    ]);
    expect(next).toEqual({ id: 'b', cls: 'now' });
  });
});
