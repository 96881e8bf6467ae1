import type { Clock } from '../../src-main/core/sync/engine/bandwidth';

/**
 * A clock that moves only when told: sleeps resolve in time order as `advance` passes them. `stepWall`
 * moves the wall clock (`now`) alone, as NTP or a person does; the monotonic reading and the sleeps go on.
 */
export function fakeClock(start = 0): Clock & {
  advance(ms: number): Promise<void>;
  pending(): number;
  stepWall(ms: number): void;
} {
  let t = start;
  let wallOffset = 0;
  let seq = 0;
  const sleepers: { at: number; seq: number; resolve: () => void }[] = [];
  const flush = () => new Promise<void>((r) => setImmediate(r));
  return {
    now: () => t + wallOffset,
    monotonic: () => t,
    stepWall(ms) {
      wallOffset += ms;
    },
    sleep(ms, signal) {
      return new Promise((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const onAbort = () => {
          const i = sleepers.indexOf(s);
          if (i >= 0) sleepers.splice(i, 1);
          reject(signal?.reason);
        };
        // A sleep that ends lets go of its signal: a loop of many sleeps on one signal adds no listeners.
        const s = {
          at: t + Math.max(0, ms),
          seq: seq++,
          resolve: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        sleepers.push(s);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    async advance(ms) {
      const end = t + ms;
      for (;;) {
        await flush();
        sleepers.sort((a, b) => a.at - b.at || a.seq - b.seq);
        const next = sleepers[0];
        if (!next || next.at > end) break;
        sleepers.shift();
        t = Math.max(t, next.at);
        next.resolve();
      }
      t = end;
      await flush();
    },
    pending: () => sleepers.length,
  };
}
