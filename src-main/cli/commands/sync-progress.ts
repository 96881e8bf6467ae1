import { formatBytes } from '../../../src-shared/domain/bytes';
import type { SyncEvents } from '../../core';

/** One line of the terminal progress bar: files, bytes, speed and ETA. Pure, for a TTY's \r redraws. */
export function progressLine(p: SyncEvents['progress'], width = 24): string {
  const ratio =
    p.bytesTotal > 0
      ? Math.min(1, p.bytesSent / p.bytesTotal)
      : p.filesTotal > 0
        ? p.filesDone / p.filesTotal
        : 1;
  const filled = Math.round(ratio * width);
  const bar = `${'#'.repeat(filled)}${'.'.repeat(width - filled)}`;
  const eta = p.etaSeconds === null ? '--' : formatDuration(p.etaSeconds);
  return `[${bar}] ${p.filesDone}/${p.filesTotal} files  ${formatBytes(p.bytesSent)}/${formatBytes(p.bytesTotal)}  ${formatBytes(p.bytesPerSecond)}/s  ETA ${eta}`;
}

export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  const m = Math.floor(seconds / 60);
  if (m < 60) return `${m}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}
