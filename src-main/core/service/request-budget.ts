import {
  FILE_API_BUDGET_DEFAULT_PER_MINUTE,
  FILE_API_REQUESTS_PER_MINUTE,
  KB_API_BUDGET_DEFAULT_PER_MINUTE,
  KB_REQUESTS_PER_MINUTE,
} from '../../../src-shared/domain/limits';

/**
 * A token bucket kept below the service's per-address limit, shared by every call to that address
 * (uploads, listing, /me, retries), after rclone's pacer: retries count, and a 429's Retry-After wins.
 */
export interface RequestBudget {
  /** Resolves when a request may be sent; rejects with the signal's reason when aborted while waiting. */
  take(signal?: AbortSignal): Promise<void>;
  /** A 429's Retry-After: nobody on this budget sends before `epochMs`. */
  deferUntil(epochMs: number): void;
  /** Changes the rate in place (0 = unlimited); waiters keep their place. */
  configure(opts: { perMinute: number; burst?: number }): void;
  readonly perMinute: number;
  readonly burst: number;
  /** Requests waiting for a token now (shown in the UI as "the request budget in use"). */
  readonly waiting: number;
}

export const DEFAULT_FILE_API_PER_MINUTE = FILE_API_BUDGET_DEFAULT_PER_MINUTE;
export const DEFAULT_KB_API_PER_MINUTE = KB_API_BUDGET_DEFAULT_PER_MINUTE;

/**
 * Any 60 s window holds at most `burst + perMinute` grants, so the burst is what is left under the
 * server's limit with a little room for arrival jitter: 115/min + 2 stays under 120/min; 55/min + 1
 * under 60/min. A higher rate would leave no room; a lower one wastes the allowance (240 uploads take
 * 2 min 4 s at 115/min against the 2-minute floor).
 */
export function defaultBurst(perMinute: number): number {
  return Math.max(1, Math.min(10, Math.floor(perMinute / 40)));
}

interface Waiter {
  resolve(): void;
  reject(reason: unknown): void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

export function createRequestBudget(opts: {
  perMinute: number;
  burst?: number;
  now?: () => number;
}): RequestBudget {
  const now = opts.now ?? Date.now;
  let perMinute = 0;
  let burst = 1;
  let tokens = 0;
  let refilledAt = now();
  let notBefore = 0;
  const queue: Waiter[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;

  const setRate = (p: { perMinute: number; burst?: number }) => {
    if (!Number.isFinite(p.perMinute) || p.perMinute < 0) throw new RangeError('perMinute must be 0 or more');
    refill();
    perMinute = p.perMinute;
    burst = Math.max(1, Math.floor(p.burst ?? defaultBurst(p.perMinute)));
    tokens = Math.min(tokens, burst);
  };

  function refill(): void {
    const t = now();
    // Time before a Retry-After deadline earns nothing: the server's window is still full.
    const from = Math.max(refilledAt, notBefore);
    if (perMinute > 0 && t > from) tokens = Math.min(burst, tokens + ((t - from) * perMinute) / 60_000);
    refilledAt = Math.max(t, refilledAt);
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
      refill();
      if (tokens >= 1) {
        tokens -= 1;
        grant();
        continue;
      }
      schedule(Math.ceil(((1 - tokens) * 60_000) / perMinute));
      return;
    }
  }

  function grant(): void {
    const w = queue.shift()!;
    if (w.signal && w.onAbort) w.signal.removeEventListener('abort', w.onAbort);
    w.resolve();
  }

  function schedule(ms: number): void {
    // Not unref'd: the timer only runs while someone waits for a token, and a pending promise alone
    // does not keep Node alive, so an unref'd timer would let a waiting CLI exit mid-run.
    timer = setTimeout(pump, Math.max(1, ms));
  }

  setRate(opts);
  tokens = burst;

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
      refill();
      notBefore = epochMs;
      tokens = 0;
      pump();
    },
    configure(p) {
      setRate(p);
      pump();
    },
    get perMinute() {
      return perMinute;
    },
    get burst() {
      return burst;
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
  opts?: { perMinute?: number; burst?: number },
): RequestBudget {
  const key = `${kind} ${originOf(baseUrl)}`;
  let budget = registry.get(key);
  if (!budget) {
    const perMinute =
      opts?.perMinute ?? (kind === 'files' ? DEFAULT_FILE_API_PER_MINUTE : DEFAULT_KB_API_PER_MINUTE);
    budget = createRequestBudget({ perMinute, ...(opts?.burst !== undefined ? { burst: opts.burst } : {}) });
    registry.set(key, budget);
  } else if (opts?.perMinute !== undefined) {
    budget.configure({
      perMinute: opts.perMinute,
      ...(opts.burst !== undefined ? { burst: opts.burst } : {}),
    });
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

// The limits the service documents; the defaults above stay under them.
export const SERVICE_LIMITS = { files: FILE_API_REQUESTS_PER_MINUTE, kb: KB_REQUESTS_PER_MINUTE } as const;
