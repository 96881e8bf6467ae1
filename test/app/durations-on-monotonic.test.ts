import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRequestMeter } from '../../src-main/core/app/request-meter';
import { uploadProgressTracker } from '../../src-main/core/app/upload-progress';

/**
 * The app's own durations under a step of the wall clock (issue 33). vitest's fake timers move the wall
 * clock (Date) and the monotonic one (performance) together; `setSystemTime` moves the wall clock alone,
 * as NTP after a sleep does.
 */
beforeEach(() => {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('a step of the wall clock', () => {
  it.each([
    ['back 10 minutes', -10 * 60_000],
    ['forward an hour', 60 * 60_000],
  ])('a step %s: the requests of the last minute are still those of the last minute', (_, step) => {
    const meter = createRequestMeter();
    for (let i = 0; i < 5; i++) meter.record();
    vi.setSystemTime(Date.now() + step);
    vi.advanceTimersByTime(30_000);
    expect(meter.lastMinute()).toBe(5);
    vi.advanceTimersByTime(31_000);
    expect(meter.lastMinute()).toBe(0);
  });

  it.each([
    ['back 10 minutes', -10 * 60_000],
    ['forward an hour', 60 * 60_000],
  ])('a step %s: an upload at 1 MB/s still reads about 1 MB/s', (_, step) => {
    const tracker = uploadProgressTracker();
    const ev = (sentBytes: number) => ({ fileId: 7, folderId: 1, sentBytes, totalBytes: 100_000_000 });
    tracker.onProgress(ev(0));
    const speeds: number[] = [];
    for (let i = 1; i <= 30; i++) {
      vi.advanceTimersByTime(200);
      if (i === 20) vi.setSystemTime(Date.now() + step);
      tracker.onProgress(ev(i * 200_000));
      if (i >= 20) speeds.push(tracker.progressOf(7)!.bytesPerSecond ?? 0);
    }
    // From the step on, every reading: about 1 MB/s (after 4 s at it, the average is 3/4 of the way there).
    for (const bps of speeds) {
      expect(bps).toBeGreaterThanOrEqual(700_000);
      expect(bps).toBeLessThanOrEqual(1_100_000);
    }
  });
});
