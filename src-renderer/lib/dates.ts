import { parseServiceTime } from '../../src-shared/domain/ist-time';

/** `arrears.since`/`deadline` have no documented format: accept the service's IST form or ISO 8601. */
export const parseServiceDate = parseServiceTime;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Time left until a deadline, precise to the hour: "29 days 14 h", "1 day", "5 h 20 min", or null
 * once it has passed. `now` must be the service's time: the deadline is on its clock.
 */
export function timeLeft(deadline: number, now: number): string | null {
  const ms = deadline - now;
  if (ms <= 0) return null;
  const days = Math.floor(ms / DAY);
  const hours = Math.floor((ms % DAY) / HOUR);
  if (days > 0) return `${days} day${days === 1 ? '' : 's'}${hours ? ` ${hours} h` : ''}`;
  const minutes = Math.floor((ms % HOUR) / 60_000);
  return hours > 0 ? `${hours} h${minutes ? ` ${minutes} min` : ''}` : `${Math.max(1, minutes)} min`;
}
