import {
  type Limit,
  limitAt,
  type ScheduleEntry,
  type ScheduleZone,
  windowsAhead,
} from '../../../../src-shared/domain/bwlimit';
import type { LimitWindow } from '../../../../src-shared/domain/time-left';
import type { Clock, RateLimiter } from './bandwidth';
import type { EngineState } from './engine-state';

/** The upload limit the user set: one rate for all hours, or a weekly timetable (which then decides). */
export interface BandwidthSetting {
  limit: Limit;
  schedule: readonly ScheduleEntry[];
  /** The clock the timetable's days and hours are read on; absent: the machine's (rclone's `--bwlimit`). */
  zone?: ScheduleZone;
}

/** What is in force now, and until when (epoch ms; null: until the setting changes). */
export interface InForce {
  limit: Limit;
  until: number | null;
  /** `schedule` when the timetable decides, `limit` for the one rate. */
  source: 'limit' | 'schedule';
  /** The timetable's clock, when the schedule decides. */
  zone?: ScheduleZone;
}

export interface BandwidthSchedule {
  set(setting: BandwidthSetting): void;
  inForce(): InForce;
  /**
   * What the estimate of time left reads of the timetable (time-left.ts): the pause in force and its end
   * (Infinity: a timetable of pauses only), and the windows after the one in force, a week ahead.
   */
  ahead(): { pausedUntil: number | null; windows: LimitWindow[] };
  /** Follows the clock from now on (start) / no more (stop: resolves at once, nothing of it runs after). */
  start(): void;
  stop(): Promise<void>;
}

/**
 * Follows the weekly timetable on the engine's clock: at each edge it sets the shared rate limiter and
 * the schedule's pause (the scheduler starts no hashing or upload in a paused window; uploads already
 * on the wire finish, at the window's rate), tells the listeners, and waits for the next edge.
 */
export function createBandwidthSchedule(
  state: EngineState,
  deps: {
    limiter: RateLimiter;
    clock: Clock;
    wake: () => void;
    onChange: (f: InForce) => void;
    /** An edge whose work threw (a listener, the limiter): reported, and the next edge waited for all the same. */
    onError?: (e: unknown) => void;
  },
  initial: BandwidthSetting = { limit: { kind: 'off' }, schedule: [] },
): BandwidthSchedule {
  let setting = initial;
  let current: InForce = compute();
  let edge: AbortController | null = null;
  let running = false;

  function compute(): InForce {
    if (setting.schedule.length === 0) return { limit: setting.limit, until: null, source: 'limit' };
    const zone = setting.zone ?? 'local';
    return { ...limitAt(setting.schedule, deps.clock.now(), zone), source: 'schedule', zone };
  }

  function apply() {
    current = compute();
    const { limit } = current;
    deps.limiter.setRate(limit.kind === 'rate' ? limit.bytesPerSecond : null);
    const wasPaused = state.schedulePaused;
    state.schedulePaused = limit.kind === 'pause';
    deps.onChange(current);
    if (wasPaused && !state.schedulePaused) deps.wake();
    waitForEdge();
  }

  function waitForEdge() {
    edge?.abort();
    edge = null;
    if (!running || current.until === null) return;
    const ctl = new AbortController();
    edge = ctl;
    // A minute's edge plus a little, so the next reading falls inside the new window.
    deps.clock.sleep(Math.max(0, current.until - deps.clock.now()) + 5, ctl.signal).then(
      () => {
        if (edge !== ctl) return;
        try {
          apply();
        } catch (e) {
          deps.onError?.(e);
          waitForEdge();
        }
      },
      () => undefined,
    );
  }

  return {
    set(s) {
      setting = s;
      apply();
    },
    inForce: () => current,
    ahead() {
      const now = deps.clock.now();
      const pausedUntil = current.limit.kind === 'pause' ? (current.until ?? Number.POSITIVE_INFINITY) : null;
      if (setting.schedule.length === 0) return { pausedUntil, windows: [] };
      return { pausedUntil, windows: windowsAhead(setting.schedule, now, setting.zone ?? 'local') };
    },
    start() {
      running = true;
      apply();
    },
    async stop() {
      running = false;
      edge?.abort();
      edge = null;
    },
  };
}
