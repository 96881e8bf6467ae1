import { monotonicNow } from '../service/clock';

/**
 * Requests sent in the last minute, for the "request budget in use" figure. On the monotonic clock: on the
 * wall clock a step back kept every request "in the last minute" for the step's length, one forward dropped
 * them all at once.
 */
export function createRequestMeter(now: () => number = monotonicNow) {
  const times: number[] = [];
  const trim = () => {
    const cutoff = now() - 60_000;
    while (times.length && times[0]! < cutoff) times.shift();
  };
  return {
    record(): void {
      times.push(now());
      if (times.length > 1000) trim();
    },
    lastMinute(): number {
      trim();
      return times.length;
    },
  };
}
export type RequestMeter = ReturnType<typeof createRequestMeter>;
