import type { FileApiClient } from '../service/file-api-client';
import { etaSeconds, speedMeter } from '../sync/progress';

export interface UploadProgress {
  sentBytes: number;
  sizeBytes: number;
  bytesPerSecond: number | null;
  etaSeconds: number | null;
}

/**
 * The engine reports progress for all uploads together; the queue shows it per file. This wraps
 * the client the engine is given and watches each upload's own byte count, keyed by local path.
 */
export function trackUploads(client: FileApiClient, now: () => number = Date.now) {
  const live = new Map<string, { sent: number; size: number; meter: ReturnType<typeof speedMeter> }>();
  const tracked: FileApiClient = {
    ...client,
    baseUrl: client.baseUrl,
    listAllFiles: (q) => client.listAllFiles(q),
    async uploadFile(input) {
      const entry = { sent: 0, size: input.size, meter: speedMeter(2_000) };
      live.set(input.path, entry);
      try {
        return await client.uploadFile({
          ...input,
          onProgress: (sent) => {
            entry.meter.add(sent - entry.sent, now());
            entry.sent = sent;
            input.onProgress?.(sent);
          },
        });
      } finally {
        if (live.get(input.path) === entry) live.delete(input.path);
      }
    },
  };
  return {
    client: tracked,
    progressOf(path: string): UploadProgress | null {
      const e = live.get(path);
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
