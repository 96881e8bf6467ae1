import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatAgo, formatTime } from '../../src-renderer/lib/format';
import { parseIst } from '../../src-shared/domain/ist-time';
import { formatIstTime, formatIstTimeSeconds, formatRelative } from '../../src-shared/domain/time-format';

describe('one time format: IST, labelled', () => {
  it('shows a UTC instant as the IST wall clock, with the label', () => {
    expect(formatIstTime(Date.UTC(2026, 10, 23, 8, 35))).toBe('23 Nov 2026, 14:05 IST');
    // 20:00 UTC is already the next day in IST.
    expect(formatIstTime(Date.UTC(2026, 10, 23, 20, 0, 9))).toBe('24 Nov 2026, 01:30 IST');
    expect(formatIstTimeSeconds(Date.UTC(2026, 10, 23, 20, 0, 9))).toBe('24 Nov 2026, 01:30:09 IST');
  });

  it("agrees with the service's own IST text for any instant", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (ms) => {
        const minute = Math.floor(ms / 60_000) * 60_000;
        const m = /^(\d+) (\w+) (\d{4}), (\d{2}):(\d{2}) IST$/.exec(formatIstTime(minute));
        expect(m).not.toBeNull();
        const [, d, mon, y, h, mi] = m!;
        const mo = 'JanFebMarAprMayJunJulAugSepOctNovDec'.indexOf(mon!) / 3 + 1;
        const text = `${y}-${String(mo).padStart(2, '0')}-${d!.padStart(2, '0')} ${h}:${mi}`;
        expect(parseIst(text)).toBe(minute);
      }),
    );
  });

  it('the renderer formats service times in IST, never in the machine zone', () => {
    expect(formatTime(Date.UTC(2026, 10, 23, 8, 35))).toBe('23 Nov 2026, 14:05 IST');
    expect(formatAgo(Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 5))).toBe('1 Jan 2026, 05:30 IST');
  });

  it('says how long ago within a day, in either direction', () => {
    const now = Date.UTC(2026, 10, 23, 12);
    expect(formatRelative(now - 3_000, now)).toBe('just now');
    expect(formatRelative(now + 800, now)).toBe('just now');
    expect(formatRelative(now - 25_000, now)).toBe('25 s ago');
    expect(formatRelative(now - 3 * 60_000 - 5_000, now)).toBe('3 min ago');
    expect(formatRelative(now - 2 * 3_600_000, now)).toBe('2 h ago');
    expect(formatRelative(now + 5 * 60_000, now)).toBe('in 5 min');
    expect(formatRelative(now - 86_400_000, now)).toBe(formatIstTime(now - 86_400_000));
    expect(formatAgo(null)).toBe('never');
  });
});
