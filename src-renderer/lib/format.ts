import { formatIstTime, formatRelative } from '../../src-shared/domain/time-format';
import { timeLeftText } from '../../src-shared/domain/words';

export { formatBytes } from '../../src-shared/domain/bytes';
export { formatRupees } from '../../src-shared/domain/money';
export { formatIstTime } from '../../src-shared/domain/time-format';

/** Time left for people ("under a second", "42 s", "3 min 5 s"); a dash when unknown. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '—';
  return timeLeftText(seconds);
}

/** "3 min ago" within a day, else the labelled IST time (docs/desktop-app.md, "Times"). */
export function formatAgo(epochMs: number | null, now = Date.now()): string {
  return epochMs === null ? 'never' : formatRelative(epochMs, now);
}

/** A service time: in IST and labelled, whatever the browser's zone. */
export function formatTime(epochMs: number): string {
  return formatIstTime(epochMs);
}
