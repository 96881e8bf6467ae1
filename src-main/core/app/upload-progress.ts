import { monotonicNow } from '../service/clock';
import type { SyncEvents } from '../sync/events';
import { etaSeconds, speedMeter } from '../sync/progress';

export interface UploadProgress {
  sentBytes: number;
  sizeBytes: number;
  bytesPerSecond: number | null;
  etaSeconds: number | null;
}

/**
 * Per-file speed and ETA for the queue, from the engine's `upload-progress` events (the engine reports
 * bytes; how fast and how long is for whoever shows it). Durations on the monotonic clock: a step of the
 * wall clock made a speed negative or near nothing.
 */
export function uploadProgressTracker(now: () => number = monotonicNow) {
  const live = new Map<number, { sent: number; size: number; meter: ReturnType<typeof speedMeter> }>();
  return {
    onProgress(e: SyncEvents['upload-progress']): void {
      let entry = live.get(e.fileId);
      if (!entry || e.sentBytes < entry.sent) {
        // A new upload of the file (or a retry starting over): a new meter.
        entry = { sent: 0, size: e.totalBytes, meter: speedMeter(2_000) };
        live.set(e.fileId, entry);
      }
      entry.meter.add(e.sentBytes - entry.sent, now());
      entry.sent = e.sentBytes;
      entry.size = e.totalBytes;
    },
    /** The file left UPLOADING: its upload is over, whatever the outcome. */
    forget(fileId: number): void {
      live.delete(fileId);
    },
    clear(): void {
      live.clear();
    },
    progressOf(fileId: number): UploadProgress | null {
      const e = live.get(fileId);
      if (!e) return null;
      const bps = e.meter.bytesPerSecond(now());
      return {
        sentBytes: e.sent,
        sizeBytes: e.size,
        bytesPerSecond: bps >= 1 ? Math.round(bps) : null,
        etaSeconds: etaSeconds(e.size - e.sent, bps),
      };
    },
  };
}
