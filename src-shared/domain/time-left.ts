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
  /** The retry times (epoch ms) of files that only wait for their automatic retry. */
  retryAts?: readonly number[];
  /** The schedule's pause in force until then (epoch ms), or null. */
  pausedUntil?: number | null;
}

export function estimateTimeLeft(f: TimeLeftFacts): { seconds: number | null; bound: TimeLeftBound | null } {
  const retryWait = Math.max(0, ...(f.retryAts ?? []).map((t) => (t - f.now) / 1000));
  const pause = f.pausedUntil ? Math.max(0, (f.pausedUntil - f.now) / 1000) : 0;
  if (f.filesLeft <= 0 && f.bytesLeft <= 0) {
    if (retryWait > 0) return { seconds: Math.ceil(retryWait), bound: 'retry' };
    return { seconds: 0, bound: null };
  }
  let speed = f.bytesPerSecond;
  if (f.limitBytesPerSecond !== null)
    speed = speed >= 1 ? Math.min(speed, f.limitBytesPerSecond) : f.limitBytesPerSecond;
  const candidates: [number, TimeLeftBound][] = [];
  if (f.bytesLeft > 0 && speed >= 1) candidates.push([f.bytesLeft / speed, 'bytes']);
  if (f.requestsPerMinute > 0) candidates.push([(f.filesLeft / f.requestsPerMinute) * 60, 'requests']);
  const elapsed = f.startedAt !== null ? (f.now - f.startedAt) / 1000 : 0;
  // The pace of whole files, once three are done: the first ones pay for the start (a scan, a hash).
  if (f.filesDone >= 3 && elapsed > 0 && f.filesLeft > 0)
    candidates.push([(f.filesLeft * elapsed) / f.filesDone, 'pace']);
  if (candidates.length === 0) return { seconds: null, bound: null };
  let [seconds, bound] = candidates[0]!;
  for (const [s, b] of candidates) if (s > seconds) [seconds, bound] = [s, b];
  if (retryWait > seconds) [seconds, bound] = [retryWait, 'retry'];
  if (pause > 0) [seconds, bound] = [seconds + pause, 'schedule'];
  return { seconds: Math.ceil(seconds), bound };
}
