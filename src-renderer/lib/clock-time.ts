import { formatIstClock } from '../../src-shared/domain/time-format';

/** A time of day to the second, in IST like every time the app shows: when it went offline, when it tries next. */
export const clockTime = formatIstClock;

/** "in 8 s", "in 2 min", or "now" once it is due. */
export function inHowLong(epochMs: number, now: number): string {
  const s = Math.round((epochMs - now) / 1000);
  if (s <= 0) return 'now';
  return s < 90 ? `in ${s} s` : `in ${Math.round(s / 60)} min`;
}
