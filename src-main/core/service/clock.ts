/**
 * Time as the core's waiting code sees it: the pacer's sleeps between attempts, the upload rate
 * limiter, the bandwidth timetable. Injected so that tests move time by hand (test/sync/fake-clock.ts)
 * instead of waiting on the wall clock.
 */
export interface Clock {
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason at once when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * The core's one sleep: abortable, so nothing that waits outlives a stop (a run cancelled, the app
 * closing) by the rest of its wait.
 */
export const realClock: Clock = {
  now: () => Date.now(),
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
