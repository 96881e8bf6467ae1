/**
 * Transfer speed as an exponentially weighted average of bytes per second, and the ETA it implies.
 * Pure: the caller feeds byte counts and times.
 */
export interface SpeedMeter {
  add(bytes: number, atMs: number): void;
  bytesPerSecond(atMs: number): number;
}

export function speedMeter(halfLifeMs = 3_000): SpeedMeter {
  let rate = 0;
  let last: number | null = null;
  let pending = 0;
  const decayTo = (atMs: number) => {
    if (last === null) {
      last = atMs;
      return;
    }
    const dt = atMs - last;
    if (dt < 100) return;
    const alpha = 1 - 2 ** (-dt / halfLifeMs);
    rate = rate + alpha * ((pending * 1000) / dt - rate);
    pending = 0;
    last = atMs;
  };
  return {
    add(bytes, atMs) {
      pending += bytes;
      decayTo(atMs);
    },
    bytesPerSecond(atMs) {
      decayTo(atMs);
      return rate;
    },
  };
}

export function etaSeconds(remainingBytes: number, bytesPerSecond: number): number | null {
  if (remainingBytes <= 0) return 0;
  if (bytesPerSecond < 1) return null;
  return Math.ceil(remainingBytes / bytesPerSecond);
}
