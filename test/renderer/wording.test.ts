import { describe, expect, it } from 'vitest';
import { parseServiceDate, timeLeft } from '../../src-renderer/lib/dates';
import { plural } from '../../src-renderer/lib/plural';
import { formatBytes } from '../../src-shared/domain/bytes';

describe('wording', () => {
  it('agrees the word with the count', () => {
    expect(plural(1, 'file')).toBe('1 file');
    expect(plural(0, 'file')).toBe('0 files');
    expect(plural(10_000, 'file')).toBe('10,000 files');
    expect(plural(1, 'extra copy', 'extra copies')).toBe('1 extra copy');
    expect(plural(3, 'extra copy', 'extra copies')).toBe('3 extra copies');
  });

  it('counts down to an IST deadline on the clock it is given, to the hour', () => {
    const deadline = parseServiceDate('2026-12-22 00:00')!;
    // One day after the arrears began at 2026-11-22 00:00 IST, with 30 days of grace.
    const oneDayIn = parseServiceDate('2026-11-23 00:00')!;
    expect(timeLeft(deadline, oneDayIn)).toBe('29 days');
    expect(timeLeft(deadline, parseServiceDate('2026-11-23 09:30')!)).toBe('28 days 14 h');
    expect(timeLeft(deadline, parseServiceDate('2026-12-21 00:00')!)).toBe('1 day');
    expect(timeLeft(deadline, parseServiceDate('2026-12-21 18:40')!)).toBe('5 h 20 min');
    expect(timeLeft(deadline, parseServiceDate('2026-12-21 23:59')!)).toBe('1 min');
    expect(timeLeft(deadline, deadline)).toBe(null);
  });
});

describe('byte sizes', () => {
  it('are binary units labelled as such, the same in the UI and the CLI', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(1024)).toBe('1 KiB');
    // The service's per-file ceiling, which its documents call "200 MB".
    expect(formatBytes(209_715_200)).toBe('200 MiB');
    expect(formatBytes(2 ** 30)).toBe('1 GiB');
    expect(formatBytes(67.4 * 2 ** 20)).toBe('67 MiB');
  });
});

describe('usage chart scales', async () => {
  const { byteUnit, ticks } = await import('../../src-renderer/views/usage/chart-scale');
  it('gives round ticks in the unit of the series, at least two steps', () => {
    expect(ticks(1, { minStep: 1 })).toEqual([0, 1, 2]); // one paisa a day sits mid-chart
    expect(ticks(37, { minStep: 1 })).toEqual([0, 10, 20, 30, 40]);
    const mb = 1024 ** 2;
    expect(byteUnit(67 * mb)).toBe(mb);
    expect(ticks(67 * mb, { unit: mb })).toEqual([0, 20, 40, 60, 80].map((v) => v * mb));
    expect(byteUnit(500)).toBe(1);
  });
});
