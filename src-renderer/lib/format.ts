export { formatRupees } from '../../src-shared/domain/money';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** Binary units, as the service counts them (its "200 MB" ceiling is 209,715,200 bytes; a GB is 2^30). */
export function formatBytes(bytes: number): string {
  let v = bytes;
  let u = 0;
  while (Math.abs(v) >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  return `${u === 0 ? v : v.toFixed(v < 10 ? 1 : 0)} ${UNITS[u]}`;
}

export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '—';
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ${Math.round(seconds % 60)}s`;
  const h = Math.floor(seconds / 3600);
  if (h < 48) return `${h}h ${Math.floor((seconds % 3600) / 60)}m`;
  return `${Math.floor(h / 24)} days`;
}

export function formatAgo(epochMs: number | null, now = Date.now()): string {
  if (epochMs === null) return 'never';
  const s = Math.round((now - epochMs) / 1000);
  if (s < 10) return 'just now';
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return new Date(epochMs).toLocaleString();
}

export function formatTime(epochMs: number): string {
  return new Date(epochMs).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
