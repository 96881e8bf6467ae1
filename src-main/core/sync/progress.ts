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

/**
 * Time left at the limit: the bytes at the measured speed (never above the upload limit: the bar and
 * the ETA follow the limited rate) and the files at the request budget (one upload request each:
 * 10,000 small files at 115 a minute take 87 minutes whatever the bandwidth). The longer of the two
 * is the answer, and says which bounds it.
 */
export function timeLeft(q: {
  bytes: number;
  files: number;
  bytesPerSecond: number;
  limitBytesPerSecond: number | null;
  requestsPerMinute: number;
}): { seconds: number | null; bound: 'requests' | 'bytes' | null } {
  if (q.files <= 0 && q.bytes <= 0) return { seconds: 0, bound: null };
  let speed = q.bytesPerSecond;
  if (q.limitBytesPerSecond !== null)
    speed = speed >= 1 ? Math.min(speed, q.limitBytesPerSecond) : q.limitBytesPerSecond;
  const byBytes = etaSeconds(q.bytes, speed);
  const byRequests = q.requestsPerMinute > 0 ? Math.ceil((q.files / q.requestsPerMinute) * 60) : null;
  if (byRequests === null) return { seconds: byBytes, bound: byBytes === null ? null : 'bytes' };
  if (byBytes === null || byRequests >= byBytes) return { seconds: byRequests, bound: 'requests' };
  return { seconds: byBytes, bound: 'bytes' };
}
