/** India Standard Time is UTC+05:30 all year (no daylight saving), so a fixed offset is exact. */
export const IST_OFFSET_MS = (5 * 60 + 30) * 60 * 1000;
const DAY_MS = 86_400_000;

function istParts(epochMs: number) {
  const d = new Date(epochMs + IST_OFFSET_MS);
  const p2 = (n: number) => String(n).padStart(2, '0');
  return {
    date: `${d.getUTCFullYear()}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())}`,
    time: `${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}`,
    seconds: p2(d.getUTCSeconds()),
  };
}

/** `YYYY-MM-DD HH:MM` in IST, the service's date format. */
export function formatIstMinute(epochMs: number): string {
  const p = istParts(epochMs);
  return `${p.date} ${p.time}`;
}

/** `YYYY-MM-DD HH:MM:SS` in IST, the knowledge-entry API's `updated_at` format. */
export function formatIstSecond(epochMs: number): string {
  const p = istParts(epochMs);
  return `${p.date} ${p.time}:${p.seconds}`;
}

/** `YYYY-MM-DD`, the IST calendar date. */
export function formatIstDate(epochMs: number): string {
  return istParts(epochMs).date;
}

/** Epoch ms of the IST midnight that starts the IST day containing `epochMs`. */
export function istMidnightOnOrBefore(epochMs: number): number {
  return Math.floor((epochMs + IST_OFFSET_MS) / DAY_MS) * DAY_MS - IST_OFFSET_MS;
}

/** Epoch ms of the first IST midnight strictly after `epochMs`. */
export function nextIstMidnight(epochMs: number): number {
  return istMidnightOnOrBefore(epochMs) + DAY_MS;
}

/** Parses `YYYY-MM-DD HH:MM` or `YYYY-MM-DD HH:MM:SS` as IST; null when malformed. */
export function parseIst(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m;
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0));
  return Number.isNaN(utc) ? null : utc - IST_OFFSET_MS;
}

/**
 * The IST wall clock of a moment as numbers: weekday (0 = Sunday, as Date#getDay), hour, minute, and
 * the calendar date's parts. What the weekly upload schedule reads when its hours are IST.
 */
export function istWallClock(epochMs: number): {
  year: number;
  month: number;
  date: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
} {
  const d = new Date(epochMs + IST_OFFSET_MS);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth(),
    date: d.getUTCDate(),
    day: d.getUTCDay(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}

/**
 * The machine's wall clock of a moment (its own zone, daylight saving included), in the same shape:
 * the other choice of the weekly schedule. `utcOffsetMinutes` is the zone's offset at that moment.
 */
export function localWallClock(
  epochMs: number,
): ReturnType<typeof istWallClock> & { utcOffsetMinutes: number } {
  const d = new Date(epochMs);
  return {
    year: d.getFullYear(),
    month: d.getMonth(),
    date: d.getDate(),
    day: d.getDay(),
    hour: d.getHours(),
    minute: d.getMinutes(),
    second: d.getSeconds(),
    utcOffsetMinutes: -d.getTimezoneOffset(),
  };
}

/** IST's offset from UTC in minutes (+330). */
export const IST_OFFSET_MINUTES = 330;

/** "UTC+05:30", "UTC-04:00", "UTC": an offset in minutes for people. */
export function utcOffsetText(minutes: number): string {
  if (minutes === 0) return 'UTC';
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/**
 * A time the service or the app wrote down, as epoch ms: the service's IST form (`YYYY-MM-DD HH:MM`,
 * with or without seconds) or ISO 8601 with its offset; null when neither.
 */
export function parseServiceTime(text: string | null | undefined): number | null {
  if (!text) return null;
  const ist = parseIst(text);
  if (ist !== null) return ist;
  if (!/^\d{4}-\d{2}-\d{2}T/.test(text)) return null;
  const iso = Date.parse(text);
  return Number.isNaN(iso) ? null : iso;
}

/** ISO 8601 with IST's offset written out, `2026-11-25T07:24:00+05:30`: what a spreadsheet reads right. */
export function formatIstIso(epochMs: number): string {
  const p = istParts(epochMs);
  return `${p.date}T${p.time}:${p.seconds}+05:30`;
}

export { DAY_MS };
