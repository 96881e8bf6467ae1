export { formatBytes } from '../../src-shared/domain/bytes';
export { formatRupees } from '../../src-shared/domain/money';

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
