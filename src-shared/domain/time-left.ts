/**
 * The one estimate of time left (issue 31), for the Folders header and each queue row: the longest of
 * what bounds the work, each from facts, never from a speed measured in the first instants.
 * - the bytes left at the measured speed, never above the upload limit;
 * - one upload request per file left, at this desk's share of the request budget (office included);
 * - the pace of files so far, once a few are done (a run of small files is bound by the round trips
 *   of each, which neither the bytes nor the budget show);
 * - a file only waiting for its retry counts by its retry time, never as bandwidth;
 * - a pause of the schedule in force adds the time until it ends.
 * Pure: the caller passes the clock.
 */
export type TimeLeftBound = 'bytes' | 'requests' | 'pace' | 'retry' | 'schedule';

export interface TimeLeftFacts {
  now: number;
  /** When this run of work began (its first file counted), epoch ms. */
  startedAt: number | null;
  bytesLeft: number;
  filesLeft: number;
  filesDone: number;
  /** The speed measured (bytes/s), or 0 when none yet. */
  bytesPerSecond: number;
  limitBytesPerSecond: number | null;
  /** This desk's requests a minute (0: no budget). */
  requestsPerMinute: number;
  /** Files whose upload request has already gone (being sent): no request left for them. */
  filesInFlight?: number;
  /**
   * When this engine's last upload requests went (epoch ms, the last minute's): the budget is a sliding
   * window, a burst of a whole minute's allowance goes at once, and the next ones as the window slides.
   */
  recentRequests?: readonly number[];
  /**
   * When the run's last files went live (epoch ms, oldest first, the last ten or so): the pace of files
   * now, which a sliding budget's bursts and the run's start would blur if taken over the whole run.
   */
  recentDone?: readonly number[];
  /** The retry times (epoch ms) of files that only wait for their automatic retry. */
  retryAts?: readonly number[];
  /** The schedule's pause in force until then (epoch ms), or null. */
  pausedUntil?: number | null;
}

export function estimateTimeLeft(f: TimeLeftFacts): { seconds: number | null; bound: TimeLeftBound | null } {
  const retryWait = Math.max(0, ...(f.retryAts ?? []).map((t) => (t - f.now) / 1000));
  const pause = f.pausedUntil ? Math.max(0, (f.pausedUntil - f.now) / 1000) : 0;
  if (f.filesLeft <= 0 && f.bytesLeft <= 0) {
    if (retryWait > 0) return { seconds: tenths(retryWait), bound: 'retry' };
    return { seconds: 0, bound: null };
  }
  let speed = f.bytesPerSecond;
  if (f.limitBytesPerSecond !== null)
    speed = speed >= 1 ? Math.min(speed, f.limitBytesPerSecond) : f.limitBytesPerSecond;
  const candidates: [number, TimeLeftBound][] = [];
  if (f.bytesLeft > 0 && speed >= 1) candidates.push([f.bytesLeft / speed, 'bytes']);
  if (f.requestsPerMinute > 0) {
    const r = requestsSeconds(
      f.filesLeft - (f.filesInFlight ?? 0),
      f.requestsPerMinute,
      f.recentRequests ?? [],
      f.now,
    );
    if (r > 0) candidates.push([r, 'requests']);
  }
  // The pace of whole files, once a few are done, over the last of them (the first ones pay for the
  // start: a scan, a hash); files already in flight are paced by their bytes, not counted again.
  const notStarted = f.filesLeft - (f.filesInFlight ?? 0);
  const recent = f.recentDone ?? [];
  if (recent.length >= 4 && notStarted > 0) {
    const span = (recent[recent.length - 1]! - recent[0]!) / 1000;
    if (span > 0) candidates.push([(notStarted * span) / (recent.length - 1), 'pace']);
  } else if (f.filesDone >= 3 && f.startedAt !== null && notStarted > 0 && !f.recentDone) {
    const elapsed = (f.now - f.startedAt) / 1000;
    if (elapsed > 0) candidates.push([(notStarted * elapsed) / f.filesDone, 'pace']);
  }
  if (candidates.length === 0) return { seconds: null, bound: null };
  let [seconds, bound] = candidates[0]!;
  for (const [s, b] of candidates) if (s > seconds) [seconds, bound] = [s, b];
  if (retryWait > seconds) [seconds, bound] = [retryWait, 'retry'];
  if (pause > 0) [seconds, bound] = [seconds + pause, 'schedule'];
  return { seconds: tenths(seconds), bound };
}

/** To a tenth of a second: work of a fraction of a second reads "under a second", not "1 s". */
const tenths = (s: number) => Math.round(s * 10) / 10;

/**
 * When the last of `requests` may go under a sliding window of `perMinute` a minute, given the times of
 * the requests already in the window: each goes when the window has room (the oldest grant a minute
 * old). Simulated for the first few windows, then at the steady rate.
 */
export function requestsSeconds(
  requests: number,
  perMinute: number,
  recent: readonly number[],
  now: number,
): number {
  if (requests <= 0) return 0;
  const window = recent.filter((t) => t > now - 60_000).sort((a, b) => a - b);
  let t = now;
  const simulated = Math.min(requests, perMinute * 3);
  for (let i = 0; i < simulated; i++) {
    if (window.length >= perMinute) t = Math.max(t, window.shift()! + 60_000);
    window.push(t);
  }
  const rest = requests - simulated;
  return (t - now) / 1000 + (rest / perMinute) * 60;
}
