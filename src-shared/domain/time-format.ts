import { formatIstIso, IST_OFFSET_MS, parseServiceTime } from './ist-time';

/**
 * The one way the app, the tray and the CLI show a moment: the service keeps its clock in IST, so every
 * time is shown in IST and says so ("23 Nov 2026, 14:05 IST"), whatever the machine's own zone. IST is
 * UTC+05:30 all year, so a fixed offset is exact and nothing here asks Intl for the machine's zone.
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const p2 = (n: number) => String(n).padStart(2, '0');

/** "23 Nov 2026, 14:05 IST". */
export function formatIstTime(epochMs: number): string {
  const d = new Date(epochMs + IST_OFFSET_MS);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())} IST`;
}

/**
 * "23 Nov 2026, 14:05" without the label: for a sentence that already says IST once, at its last time
 * ("In arrears since 26 Nov 2026, 00:00; closes 26 Dec 2026, 00:00 IST").
 */
export function formatIstTimeBare(epochMs: number): string {
  return formatIstTime(epochMs).slice(0, -4);
}

/** "25 Nov": a day of the usage chart's axis (the IST calendar day). */
export function formatIstDayMonth(epochMs: number): string {
  const d = new Date(epochMs + IST_OFFSET_MS);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
}

/** A service date `YYYY-MM-DD` ("2026-11-25") as "25 Nov"; as given when unreadable. */
export function formatServiceDay(date: string): string {
  const ms = parseServiceTime(`${date} 12:00`);
  return ms === null ? date : formatIstDayMonth(ms);
}

/** A service date `YYYY-MM-DD` as "25 Nov 2026"; as given when unreadable. */
const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** A month of the service's calendar, `2026-12`, as "December 2026" (the statement's title). */
export function formatServiceMonth(month: string): string {
  return `${MONTH_NAMES[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`;
}

export function formatServiceDate(date: string): string {
  const ms = parseServiceTime(`${date} 12:00`);
  if (ms === null) return date;
  const d = new Date(ms + IST_OFFSET_MS);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** A time the service wrote (IST text or ISO 8601) in the one format, labelled; as given when unreadable. */
export function formatServiceTime(text: string): string {
  const ms = parseServiceTime(text);
  return ms === null ? text : formatIstTime(ms);
}

/** The same without the label, for a sentence that says IST once elsewhere. */
export function formatServiceTimeBare(text: string): string {
  const ms = parseServiceTime(text);
  return ms === null ? text : formatIstTimeBare(ms);
}

/**
 * A CSV's time column says its form in its header ("received_at (ISO 8601 in IST +05:30)"): the cells are
 * for machines and spreadsheets, and a person opening the file sees why they differ from the app's
 * "28 Nov 2026, 21:19 IST" (issue 34). `clock` names the clock the column is on when columns of one
 * file are on different ones ("received_at (this computer's clock; ISO 8601 in IST +05:30)").
 */
export function csvTimeHeader(column: string, clock?: string): string {
  return `${column} (${clock ? `${clock}; ` : ''}ISO 8601 in IST +05:30)`;
}

/** A time the service wrote, for a CSV: ISO 8601 with +05:30; as given when unreadable (or empty). */
export function csvTime(text: string | null | undefined): string {
  if (!text) return '';
  const ms = parseServiceTime(text);
  return ms === null ? text : formatIstIso(ms);
}

/**
 * A period in one sentence (issue 34, Activity's offline and "slow down" lines): "from 28 Nov 2026, 21:04
 * to 21:05 IST", the end's date only when it is another day; under a minute "for 12 s at 28 Nov 2026,
 * 21:04 IST" (a period from 21:04 to 21:04 says nothing).
 */
export function formatIstPeriod(fromMs: number, toMs: number): string {
  const seconds = Math.max(0, Math.round((toMs - fromMs) / 1000));
  if (seconds < 60)
    return `for ${seconds < 1 ? 'under a second' : `${seconds} s`} at ${formatIstTime(fromMs)}`;
  const from = formatIstTimeBare(fromMs);
  const to = formatIstTime(toMs);
  const sameDay = from.split(', ')[0] === to.split(', ')[0];
  return `from ${from} to ${sameDay ? to.split(', ')[1] : to}`;
}

/** "23 Nov 2026, 14:05:09 IST", for logs and activity where seconds tell events apart. */
export function formatIstTimeSeconds(epochMs: number): string {
  const d = new Date(epochMs + IST_OFFSET_MS);
  return `${formatIstTime(epochMs).slice(0, -4)}:${p2(d.getUTCSeconds())} IST`;
}

/** "14:05:09 IST": a time of day today (when the app went offline, when it tries next). */
export function formatIstClock(epochMs: number): string {
  const d = new Date(epochMs + IST_OFFSET_MS);
  return `${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())} IST`;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * A moment relative to `now` when that helps (within a day: "just now", "3 min ago", "in 5 min",
 * "2 h ago"), else the labelled IST time. The exact time goes in a tooltip (`formatIstTime`).
 */
export function formatRelative(epochMs: number, now: number): string {
  const diff = now - epochMs;
  const abs = Math.abs(diff);
  if (abs >= DAY) return formatIstTime(epochMs);
  // Within 10 s either way is now: a stamp a tick ahead of the page's clock is not "in 1 s".
  if (abs < 10_000) return 'just now';
  const amount =
    abs < MINUTE
      ? `${Math.round(abs / 1000)} s`
      : abs < HOUR
        ? `${Math.floor(abs / MINUTE)} min`
        : `${Math.floor(abs / HOUR)} h`;
  return diff >= 0 ? `${amount} ago` : `in ${amount}`;
}
