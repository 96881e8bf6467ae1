import {
  FILE_API_BUDGET_DEFAULT_PER_MINUTE,
  KB_API_BUDGET_DEFAULT_PER_MINUTE,
} from '../../../src-shared/domain/limits';

/**
 * At most `perMinute` requests in any 60-second window, kept below the service's per-address limit and
 * shared by every call to that address (uploads, listing, /me, retries), after rclone's pacer: retries
 * count, and a 429's Retry-After wins.
 *
 * A sliding window of grant times rather than a token bucket: a bucket must keep rate + burst under the
 * limit, so either a drop of 30 files waits half a second per file (small burst) or a long run goes at
 * half speed (large burst). The window gives both: a burst up to the whole allowance at once, then
 * exactly the allowance per minute, which is also how the service counts.
 */
export interface RequestBudget {
  /** Resolves when a request may be sent; rejects with the signal's reason when aborted while waiting. */
  take(signal?: AbortSignal): Promise<void>;
  /**
   * A 429's Retry-After: nobody on this budget sends before `epochMs`, and after it the budget starts
   * from a full window (requests resume at the steady rate, not in a burst): the service counted
   * requests this budget did not see (another program at the same address).
   */
  deferUntil(epochMs: number): void;
  /** Changes the allowance in place (0 = unlimited); waiters keep their place. */
  configure(opts: { perMinute: number }): void;
  readonly perMinute: number;
  /** Requests waiting for their turn now (shown in the UI as "the request budget in use"). */
  readonly waiting: number;
}

export const DEFAULT_FILE_API_PER_MINUTE = FILE_API_BUDGET_DEFAULT_PER_MINUTE;
export const DEFAULT_KB_API_PER_MINUTE = KB_API_BUDGET_DEFAULT_PER_MINUTE;

const WINDOW_MS = 60_000;

interface Waiter {
  resolve(): void;
  reject(reason: unknown): void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

export function createRequestBudget(opts: { perMinute: number; now?: () => number }): RequestBudget {
  const now = opts.now ?? Date.now;
  let perMinute = 0;
  /** Grant times within the last window, oldest first. */
  let granted: number[] = [];
  let notBefore = 0;
  const queue: Waiter[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;

  const setRate = (p: { perMinute: number }) => {
    if (!Number.isFinite(p.perMinute) || p.perMinute < 0) throw new RangeError('perMinute must be 0 or more');
    perMinute = Math.floor(p.perMinute);
  };

  function expire(t: number): void {
    let drop = 0;
    while (drop < granted.length && granted[drop]! <= t - WINDOW_MS) drop++;
    if (drop > 0) granted = granted.slice(drop);
  }

  function pump(): void {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    while (queue.length > 0) {
      const t = now();
      if (t < notBefore) {
        schedule(notBefore - t);
        return;
      }
      if (perMinute === 0) {
        grant();
        continue;
      }
      expire(t);
      if (granted.length < perMinute) {
        granted.push(t);
        grant();
        continue;
      }
      // The oldest grant in the window leaves it first; one place frees then.
      schedule(granted[granted.length - perMinute]! + WINDOW_MS - t);
      return;
    }
  }

  function grant(): void {
    const w = queue.shift()!;
    if (w.signal && w.onAbort) w.signal.removeEventListener('abort', w.onAbort);
    w.resolve();
  }

  function schedule(ms: number): void {
    // Not unref'd: the timer only runs while someone waits, and a pending promise alone does not keep
    // Node alive, so an unref'd timer would let a waiting CLI exit mid-run.
    timer = setTimeout(pump, Math.max(1, ms));
  }

  setRate(opts);

  return {
    take(signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      return new Promise<void>((resolve, reject) => {
        const w: Waiter = { resolve, reject };
        if (signal) {
          w.signal = signal;
          w.onAbort = () => {
            const i = queue.indexOf(w);
            if (i >= 0) queue.splice(i, 1);
            reject(signal.reason);
            pump();
          };
          signal.addEventListener('abort', w.onAbort, { once: true });
        }
        queue.push(w);
        pump();
      });
    },
    deferUntil(epochMs) {
      if (epochMs <= notBefore) return;
      notBefore = epochMs;
      // A full window ending at the deadline, spread evenly: places free one by one at the steady rate.
      if (perMinute > 0) {
        const step = WINDOW_MS / perMinute;
        granted = Array.from({ length: perMinute }, (_, i) => epochMs - WINDOW_MS + (i + 1) * step);
      }
      pump();
    },
    configure(p) {
      setRate(p);
      pump();
    },
    get perMinute() {
      return perMinute;
    },
    get waiting() {
      return queue.length;
    },
  };
}

const registry = new Map<string, RequestBudget>();

/** The one budget of an address and API: every client of that address shares it. */
export function budgetFor(
  baseUrl: string,
  kind: 'files' | 'kb',
  opts?: { perMinute?: number },
): RequestBudget {
  const key = `${kind} ${originOf(baseUrl)}`;
  let budget = registry.get(key);
  if (!budget) {
    const perMinute =
      opts?.perMinute ?? (kind === 'files' ? DEFAULT_FILE_API_PER_MINUTE : DEFAULT_KB_API_PER_MINUTE);
    budget = createRequestBudget({ perMinute });
    registry.set(key, budget);
  } else if (opts?.perMinute !== undefined) {
    budget.configure({ perMinute: opts.perMinute });
  }
  return budget;
}

function originOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).origin;
  } catch {
    return baseUrl;
  }
}
