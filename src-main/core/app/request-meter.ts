/** Requests sent in the last minute, for the "request budget in use" figure. */
export function createRequestMeter(now: () => number = Date.now) {
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
