/** A time of day on this machine's clock, to the second: when the app went offline, when it tries next. */
export function clockTime(epochMs: number): string {
  return new Date(epochMs).toLocaleTimeString(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

/** "in 8 s", "in 2 min", or "now" once it is due. */
export function inHowLong(epochMs: number, now: number): string {
  const s = Math.round((epochMs - now) / 1000);
  if (s <= 0) return 'now';
  return s < 90 ? `in ${s} s` : `in ${Math.round(s / 60)} min`;
}
