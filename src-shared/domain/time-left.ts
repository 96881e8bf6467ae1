/**
 * The one estimate of time left (issue 31), for the Folders header and each queue row: the longest of
 * what bounds the work, each from facts, never from a speed measured in the first instants.
 * - the bytes left at the measured speed, never above the upload limit;
 * - one upload request per file left, at this desk's share of the request budget (office included);
 * - the pace of files so far, once a few are done (a run of small files is bound by the round trips
 *   of each, which neither the bytes nor the budget show);
 * - a file only waiting for its retry counts by its retry time, never as bandwidth;
 * - the schedule's windows ahead: no work goes in a pause (what cannot finish before one starts waits until
 *   it ends), and a limited window sends its bytes at its own rate;
 * - a hold of the request budget (a 429's Retry-After, the office's turn) sends no request before it ends.
 * Pure: the caller passes the clock.
 */
import type { Limit } from './bwlimit';

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
  /**
   * Of `bytesLeft`, those of uploads already on the wire: a pause of the schedule starts no upload but lets
   * these finish (engine/schedule.ts), at the speed measured.
   */
  bytesInFlightLeft?: number;
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
  /**
   * The schedule's windows after this one (epoch ms, ascending): from each `at` on, its limit, until the
   * next. Without them the limit in force now (and the pause's end) lasts.
   */
  windowsAhead?: readonly LimitWindow[];
  /** The request budget sends nothing before then (epoch ms): a 429's Retry-After, the office's turn. */
  requestsHeldUntil?: number | null;
}

/** One window of the schedule: from `at` (epoch ms) on, `limit`, until the next window's `at`. */
export interface LimitWindow {
  at: number;
  limit: Limit;
}

/** A stretch of the time ahead, with what may be sent in it. */
interface Stretch {
  from: number;
  paused: boolean;
  /** Bytes a second the limit allows (null: no limit). */
  rate: number | null;
}

export function estimateTimeLeft(f: TimeLeftFacts): { seconds: number | null; bound: TimeLeftBound | null } {
  const flat = bounds(f, [{ from: f.now, paused: false, rate: f.limitBytesPerSecond }]);
  const timed = bounds(f, stretchesOf(f));
  if (timed.seconds === null) return timed;
  // The schedule bounds the work when its windows (a pause now or ahead, a lower limit ahead) make it later
  // than the limit in force now would.
  if (flat.seconds === null || timed.seconds > flat.seconds + 0.05)
    return { seconds: tenths(timed.seconds), bound: 'schedule' };
  return { seconds: tenths(timed.seconds), bound: timed.bound };
}

/** The time ahead as stretches: now's (a pause in force, or the limit now), then the schedule's windows. */
function stretchesOf(f: TimeLeftFacts): Stretch[] {
  const paused = !!f.pausedUntil && f.pausedUntil > f.now;
  const out: Stretch[] = [{ from: f.now, paused, rate: paused ? null : f.limitBytesPerSecond }];
  const ahead = (f.windowsAhead ?? []).filter((w) => w.at > f.now).sort((a, b) => a.at - b.at);
  // A pause in force ends at its time even when no window is given: the limit then is the one of now.
  if (paused && !ahead.some((w) => w.at <= f.pausedUntil!))
    out.push({ from: f.pausedUntil!, paused: false, rate: f.limitBytesPerSecond });
  for (const w of ahead)
    out.push({
      from: w.at,
      paused: w.limit.kind === 'pause',
      rate: w.limit.kind === 'rate' ? w.limit.bytesPerSecond : null,
    });
  return out;
}

/** The wall time (epoch ms) when `active` seconds of sending have passed from `start`, pauses skipped. */
function afterActive(st: readonly Stretch[], start: number, active: number): number {
  let left = active * 1000;
  for (let i = 0; i < st.length; i++) {
    const to = st[i + 1]?.from ?? Number.POSITIVE_INFINITY;
    if (to <= start) continue;
    if (st[i]!.paused) continue;
    const from = Math.max(start, st[i]!.from);
    if (from + left <= to) return from + left;
    left -= to - from;
  }
  return Number.POSITIVE_INFINITY;
}

/**
 * The wall time (epoch ms) when `bytes` are sent from `start`, each stretch at its rate; none in a pause,
 * unless `onTheWire` (uploads already sent finish in a pause, unlimited).
 */
function afterBytes(
  st: readonly Stretch[],
  start: number,
  bytes: number,
  measured: number,
  onTheWire = false,
): number | null {
  let left = bytes;
  if (left <= 0) return start;
  for (let i = 0; i < st.length; i++) {
    const s = st[i]!;
    const to = st[i + 1]?.from ?? Number.POSITIVE_INFINITY;
    if (to <= start) continue;
    if (s.paused && !onTheWire) continue;
    // The speed measured, never above the window's limit: a window with a limit and no measure yet is sent
    // at the limit; one without either cannot be said. A faster network than the one measured under a
    // lower limit now is not guessed at.
    const rate = s.paused ? null : s.rate;
    const speed = rate !== null ? (measured >= 1 ? Math.min(measured, rate) : rate) : measured;
    if (speed < 1) return null;
    const from = Math.max(start, s.from);
    const need = (left / speed) * 1000;
    if (from + need <= to) return from + need;
    left -= ((to - from) / 1000) * speed;
  }
  return Number.POSITIVE_INFINITY;
}

/** The longest of what bounds the work, on the given stretches of time ahead. */
function bounds(
  f: TimeLeftFacts,
  st: readonly Stretch[],
): { seconds: number | null; bound: TimeLeftBound | null } {
  const openAt = (t: number) => afterActive(st, t, 0);
  const retryAt = Math.max(f.now, ...(f.retryAts ?? []).map((t) => openAt(t)));
  const retryWait = (retryAt - f.now) / 1000;
  if (f.filesLeft <= 0 && f.bytesLeft <= 0) {
    if (retryWait > 0) return { seconds: retryWait, bound: 'retry' };
    return { seconds: 0, bound: null };
  }
  const candidates: [number, TimeLeftBound][] = [];
  if (f.bytesLeft > 0) {
    // The uploads on the wire first (a pause lets them finish), then the rest in the windows that send.
    const wire = Math.min(f.bytesLeft, f.bytesInFlightLeft ?? 0);
    const first = afterBytes(st, f.now, wire, f.bytesPerSecond, true);
    const t = first === null ? null : afterBytes(st, first, f.bytesLeft - wire, f.bytesPerSecond);
    if (t !== null) candidates.push([(t - f.now) / 1000, 'bytes']);
  }
  const notStarted = f.filesLeft - (f.filesInFlight ?? 0);
  // Requests go once the budget's hold is over (a 429's Retry-After, the office's turn), and never in a pause.
  const heldUntil = Math.max(f.now, f.requestsHeldUntil ?? 0);
  if (f.requestsPerMinute > 0 || heldUntil > f.now) {
    const r =
      f.requestsPerMinute > 0
        ? requestsSeconds(notStarted, f.requestsPerMinute, f.recentRequests ?? [], heldUntil)
        : 0;
    const start = openAt(heldUntil);
    if (notStarted > 0) candidates.push([(afterActive(st, start, r) - f.now) / 1000, 'requests']);
  }
  // The pace of whole files, once a few are done, over the last of them (the first ones pay for the
  // start: a scan, a hash); files already in flight are paced by their bytes, not counted again.
  const recent = f.recentDone ?? [];
  let pace: number | null = null;
  if (recent.length >= 4 && notStarted > 0) {
    const span = (recent[recent.length - 1]! - recent[0]!) / 1000;
    if (span > 0) pace = (notStarted * span) / (recent.length - 1);
  } else if (f.filesDone >= 3 && f.startedAt !== null && notStarted > 0 && !f.recentDone) {
    const elapsed = (f.now - f.startedAt) / 1000;
    if (elapsed > 0) pace = (notStarted * elapsed) / f.filesDone;
  }
  if (pace !== null) candidates.push([(afterActive(st, f.now, pace) - f.now) / 1000, 'pace']);
  if (candidates.length === 0) return { seconds: null, bound: null };
  let [seconds, bound] = candidates[0]!;
  for (const [s, b] of candidates) if (s > seconds) [seconds, bound] = [s, b];
  if (retryWait > seconds) [seconds, bound] = [retryWait, 'retry'];
  // Work the schedule never lets finish (a timetable of pauses only) has no time left to say.
  if (!Number.isFinite(seconds)) return { seconds: null, bound: 'schedule' };
  return { seconds, bound };
}

/**
 * The time left now, from an estimate made at `madeAt` (epoch ms) and said `seconds`: it counts down while
 * nothing new is said (a long pause sends no progress), never below zero.
 */
export function timeLeftNow(seconds: number, madeAt: number | null | undefined, now: number): number {
  if (madeAt == null) return seconds;
  return Math.max(0, seconds - Math.max(0, now - madeAt) / 1000);
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
