/**
 * Time as the core's waiting code sees it: the pacer's sleeps between attempts, the upload rate
 * limiter, the bandwidth timetable. Injected so that tests move time by hand (test/sync/fake-clock.ts)
 * instead of waiting on the wall clock.
 *
 * Two readings (docs/architecture.md "Time"): `now()` is the wall clock (epoch ms), for what a person
 * sees, what is stored and the service's dates; `monotonic()` never steps, for every duration (a window,
 * a lease, a liveness check, a timer). A wall clock set back 10 minutes (NTP after a sleep, a dual-boot
 * machine) or forward an hour moves `now()` only.
 */
export interface Clock {
  now(): number;
  /** Milliseconds on a source that never steps (its origin is arbitrary: compare two readings only). */
  monotonic(): number;
  /** Resolves after `ms`; rejects with the signal's reason at once when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * The core's one sleep: abortable, so nothing that waits outlives a stop (a run cancelled, the app
 * closing) by the rest of its wait.
 */
export const realClock: Clock = {
  now: () => Date.now(),
  monotonic: () => monotonicNow(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const t = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(t);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/**
 * The monotonic source for code without an injected clock (the request budgets, the office): read at
 * each call, so vitest's fake timers (which fake `performance`) move it and `setSystemTime` moves only
 * the wall clock.
 */
export function monotonicNow(): number {
  return performance.now();
}

/**
 * A wall-clock time that never steps, for times a module stores and compares with later readings (the
 * knowledge outbox's undo holds and retry times): the wall clock as it read at the first call, moved on
 * by the monotonic clock since. A wall clock set back 10 minutes or forward an hour moves neither a hold's
 * end nor a retry; `toWall` gives such a time back on the wall clock for what a person sees.
 *
 * Across a restart the reading starts again from the wall clock: a stored time then reads as it was
 * written, off by the steps of the run that wrote it (a hold of seconds, a retry a round repeats).
 */
export interface SteadyWall {
  now(): number;
  /** A time of `now()`'s on the wall clock as it reads now. */
  toWall(t: number): number;
}

export function steadyWall(clock: Pick<Clock, 'now' | 'monotonic'>): SteadyWall {
  let anchor: { wall: number; mono: number } | null = null;
  const now = () => {
    anchor ??= { wall: clock.now(), mono: clock.monotonic() };
    return anchor.wall + (clock.monotonic() - anchor.mono);
  };
  return {
    now,
    toWall: (t) => clock.now() + (t - now()),
  };
}
