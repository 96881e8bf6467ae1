import type { Db } from '../shared-node/sqlite';
import { statements } from '../shared-node/statements';

/**
 * The server's clock: real time plus an offset that `POST /__admin/v1/clock/advance` grows. The offset
 * is kept in the database so that a restart does not travel back in time (billing and retries depend on it).
 */
export interface Clock {
  now(): number;
  /** Moves the clock so that now() === epochMs (never backwards). */
  setNow(epochMs: number): void;
}

export function persistentClock(db: Db): Clock {
  const prep = statements(db);
  const read = prep("SELECT value FROM server_meta WHERE key = 'clock_offset_ms'");
  const write = prep(
    "INSERT INTO server_meta (key, value) VALUES ('clock_offset_ms', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
  );
  let offset = Number((read.get() as { value: string } | undefined)?.value ?? 0);
  return {
    now: () => Date.now() + offset,
    setNow(epochMs) {
      const next = epochMs - Date.now();
      if (next <= offset) return;
      offset = next;
      write.run(String(offset));
    },
  };
}

/** Something that has work falling due at points of the server's time (daily billing, webhook retries). */
export interface JobSource {
  readonly name: string;
  /** The earliest time at which it has work, or null when it has none. */
  nextDueAt(): number | null;
  /** Does the work due at `at` (the clock already reads `at`). Must not throw. */
  runDue(at: number): Promise<void> | void;
}

/**
 * Runs due jobs in time order: on a real-time tick, and all at once when the clock is advanced. Calls are
 * serialized so that a tick and an advance never run the same job twice.
 */
export class Scheduler {
  private readonly sources: JobSource[] = [];
  private chain: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly clock: Clock) {}

  add(source: JobSource): void {
    this.sources.push(source);
  }

  /** Starts the real-time tick. */
  start(intervalMs = 1000): void {
    this.timer ??= setInterval(() => void this.runUntil(this.clock.now()), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Advances the clock by `seconds`, running every job that falls due on the way, in time order. */
  advance(seconds: number): Promise<void> {
    return this.serial(async () => {
      const target = this.clock.now() + seconds * 1000;
      await this.drain(target, true);
      this.clock.setNow(target);
    });
  }

  /** Runs what is due up to `until` without moving the clock. */
  runUntil(until: number): Promise<void> {
    return this.serial(() => this.drain(until, false));
  }

  /** Waits for work in progress (for a clean shutdown). */
  idle(): Promise<void> {
    return this.serial(async () => {});
  }

  private async drain(until: number, moveClock: boolean): Promise<void> {
    // Bounded so that a source that never stops being due cannot hang the server.
    for (let guard = 0; guard < 1_000_000; guard++) {
      let best: { source: JobSource; at: number } | null = null;
      for (const source of this.sources) {
        const at = source.nextDueAt();
        if (at !== null && at <= until && (best === null || at < best.at)) best = { source, at };
      }
      if (!best) return;
      if (moveClock) this.clock.setNow(best.at);
      await best.source.runDue(best.at);
    }
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => undefined);
    return run;
  }
}
