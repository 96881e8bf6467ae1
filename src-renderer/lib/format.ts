import { formatIstTime, formatRelative } from '../../src-shared/domain/time-format';

export { formatBytes } from '../../src-shared/domain/bytes';
export { formatRupees } from '../../src-shared/domain/money';
export { formatIstTime } from '../../src-shared/domain/time-format';

export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '—';
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ${Math.round(seconds % 60)}s`;
  const h = Math.floor(seconds / 3600);
  if (h < 48) return `${h}h ${Math.floor((seconds % 3600) / 60)}m`;
  return `${Math.floor(h / 24)} days`;
}

/** "3 min ago" within a day, else the labelled IST time (docs/desktop-app.md, "Times"). */
export function formatAgo(epochMs: number | null, now = Date.now()): string {
  return epochMs === null ? 'never' : formatRelative(epochMs, now);
}

/** A service time: in IST and labelled, whatever the browser's zone. */
export function formatTime(epochMs: number): string {
  return formatIstTime(epochMs);
}
