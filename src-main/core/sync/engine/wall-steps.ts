import type { Clock } from '../../service/clock';

/** A difference between the two clocks smaller than this is drift or a busy turn, not a step. */
export const WALL_STEP_MS = 2_000;

/**
 * Retry times and stability windows are stored in SQLite as wall-clock times (they outlive a restart),
 * so a wall clock set back while the engine runs would hold each of them by the step. The scheduler asks
 * at each turn how far the wall clock went back since its last turn, measured against the monotonic
 * clock, and moves every stored wait by as much (files-store `shiftWaits`).
 *
 * Only steps back are undone. A step forward makes waits end early, which delays nothing (the request
 * budget, on the monotonic clock, still paces every request); and a machine that slept also looks like a
 * step forward (Linux's monotonic clock stops in suspend), where moving the waits later would be wrong.
 */
export function wallSteps(clock: Pick<Clock, 'now' | 'monotonic'>): { back(): number } {
  let wall = clock.now();
  let mono = clock.monotonic();
  return {
    /** How far (ms, positive) the wall clock stepped back since the last call; 0 for none. */
    back() {
      const w = clock.now();
      const m = clock.monotonic();
      const step = m - mono - (w - wall);
      wall = w;
      mono = m;
      return step >= WALL_STEP_MS ? step : 0;
    },
  };
}
