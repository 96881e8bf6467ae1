import { IST_OFFSET_MS } from './ist-time';

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
