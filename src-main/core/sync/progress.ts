/**
 * Transfer speed as an exponentially weighted average of bytes per second, and the ETA it implies.
 * Pure: the caller feeds byte counts and times.
 */
export interface SpeedMeter {
  add(bytes: number, atMs: number): void;
  bytesPerSecond(atMs: number): number;
  /**
   * Nothing was being sent until `atMs` (no upload in flight: the request budget's wait, a pause): that time
   * is not the link's, and the speed does not decay over it. Returns the speed.
   */
  idle(atMs: number): number;
}

export function speedMeter(halfLifeMs = 3_000): SpeedMeter {
  let rate = 0;
  // How much of the average is measured (the rest is its zero start): the average is divided by it.
  // Without it the first second read a fifth of the real speed, and a 190 MiB upload that took 9 s
  // said "4 h 21 min left" (issue 31).
  let weight = 0;
  let last: number | null = null;
  let pending = 0;
  const decayTo = (atMs: number) => {
    if (last === null) {
      // The first bytes reported were sent over a time not measured: they start the clock, not the rate.
      last = atMs;
      pending = 0;
      return;
    }
    const dt = atMs - last;
    if (dt < 100) return;
    const alpha = 1 - 2 ** (-dt / halfLifeMs);
    rate = rate + alpha * ((pending * 1000) / dt - rate);
    weight = weight + alpha * (1 - weight);
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
      return weight > 0 ? rate / weight : 0;
    },
    idle(atMs) {
      if (last !== null && atMs > last) last = atMs;
      return weight > 0 ? rate / weight : 0;
    },
  };
}

export function etaSeconds(remainingBytes: number, bytesPerSecond: number): number | null {
  if (remainingBytes <= 0) return 0;
  if (bytesPerSecond < 1) return null;
  return Math.ceil(remainingBytes / bytesPerSecond);
}
