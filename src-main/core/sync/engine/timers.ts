import type { SyncContext } from '../context';
import { type BackgroundTask, runInBackground } from './background';

/**
 * The timers of one room (a folder runner, the scheduler, the account session, connectivity), by
 * name, on the engine's injected clock. Setting a name again replaces its timer. A timer's callback
 * runs as a background task: one that throws is recorded with what it was doing and repaired
 * (`task.onError`), never the end of the process. `stop()` cancels them all and resolves once the
 * callbacks already running have ended, so the room that owns them can say it has stopped.
 */
export interface RoomTimers<N extends string> {
  set(name: N, ms: number, task: BackgroundTask, fn: () => unknown): void;
  clear(name: N): void;
  has(name: N): boolean;
  /** When that timer fires (clock ms), or null when it is not set. */
  at(name: N): number | null;
  stop(): Promise<void>;
}

export function roomTimers<N extends string>(ctx: SyncContext): RoomTimers<N> {
  const armed = new Map<N, { ctl: AbortController; at: number }>();
  const running = new Set<Promise<void>>();

  function clear(name: N) {
    armed.get(name)?.ctl.abort();
    armed.delete(name);
  }

  return {
    set(name, ms, task, fn) {
      clear(name);
      const wait = Math.max(0, ms);
      const entry = { ctl: new AbortController(), at: ctx.clock.now() + wait };
      armed.set(name, entry);
      ctx.clock.sleep(wait, entry.ctl.signal).then(
        () => {
          if (armed.get(name) !== entry) return;
          armed.delete(name);
          const p = runInBackground(ctx, task, fn);
          running.add(p);
          void p.then(() => running.delete(p));
        },
        // Cancelled (cleared, set again, or stopped).
        () => undefined,
      );
    },
    clear,
    has: (name) => armed.has(name),
    at: (name) => armed.get(name)?.at ?? null,
    async stop() {
      for (const name of [...armed.keys()]) clear(name);
      await Promise.all(running);
    },
  };
}
