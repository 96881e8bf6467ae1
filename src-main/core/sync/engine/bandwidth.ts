/**
 * The upload rate limit: one limiter shared by every upload of the engine, in front of the bytes the
 * upload body hands to the socket (multipart-body.ts asks it before each slice). A generic cell rate
 * algorithm (a token bucket kept as one number, the theoretical arrival time): each slice reserves
 * its time on one line, so parallel uploads share the rate first come first served, and the sum of
 * what they send never runs ahead of the limit by more than the burst.
 */
import { type Clock, realClock } from '../../service/clock';

// The clock lives in the service layer (the pacer sleeps on it too); re-exported for the engine's rooms.
export { type Clock, realClock };

/** The largest slice asked for at once: small enough that parallel uploads interleave smoothly. */
const MAX_SLICE = 64 * 1024;
/** What may go at once after an idle spell (a quarter of a second's worth). */
const BURST_SECONDS = 0.25;

export interface RateLimiter {
  /** Bytes per second, or null for no limit. Applies to slices asked for from now on. */
  setRate(bytesPerSecond: number | null): void;
  rate(): number | null;
  /** The slice size uploads should ask for at this rate (unbounded without a limit). */
  sliceBytes(): number;
  /** Waits until `bytes` may be written. */
  take(bytes: number, signal?: AbortSignal): Promise<void>;
}

export function createRateLimiter(
  clock: Clock = realClock,
  bytesPerSecond: number | null = null,
): RateLimiter {
  let rate = bytesPerSecond;
  /** When the bytes reserved so far will all have gone at the rate (ms). */
  let tat = 0;
  return {
    setRate(r) {
      const next = r && r > 0 ? r : null;
      // What was reserved at the old rate no longer holds back slices at the new one.
      if (next !== rate) tat = Math.min(tat, clock.monotonic());
      rate = next;
    },
    rate: () => rate,
    // No limit: the body's read chunk (1 MiB) goes whole. Sliced to 64 KiB, a 200 MB upload paid
    // 3,200 trips through the body's generator, the stream and the progress event instead of 200.
    sliceBytes: () =>
      rate === null ? Number.POSITIVE_INFINITY : Math.max(256, Math.min(MAX_SLICE, Math.floor(rate / 4))),
    async take(bytes, signal) {
      if (rate === null || bytes <= 0) return;
      // The monotonic clock: a wall clock set back 10 minutes held every upload's bytes 10 minutes.
      const t = clock.monotonic();
      const burstMs = BURST_SECONDS * 1000;
      tat = Math.max(tat, t) + (bytes / rate) * 1000;
      const wait = tat - t - burstMs;
      if (wait > 0) await clock.sleep(wait, signal);
    },
  };
}
