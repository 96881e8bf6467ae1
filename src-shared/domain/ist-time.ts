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

export { DAY_MS };
