/**
 * Fault injection (`PUT /__admin/v1/faults`): a share of uploads fails in the store or loses its
 * connection, a planted error in the next daily charge (`rent_error_paise`, issue 35: a statement's
 * check of each day must flag it), and the file API answering 429 for a while (`rate_limited_seconds`,
 * issue 34: a client's "slow down" period, as the entry API's test aid already had).
 */
export interface Faults {
  storage_fail_rate: number;
  connection_reset_rate: number;
  /** Added to every client's rent at the next daily charge, then cleared (0: none). */
  rent_error_paise: number;
}

export function faultSwitch() {
  // Kept in memory: faults are a test's setting for the run in progress, not state to survive a restart.
  const current: Faults = { storage_fail_rate: 0, connection_reset_rate: 0, rent_error_paise: 0 };
  const roll = (rate: number) => rate > 0 && Math.random() < rate;
  /** On the server's clock (ms), as the entry API's; null: not limited. */
  let rateLimitedUntil: number | null = null;
  return {
    current: (): Faults => ({ ...current }),
    /** Every API request answers 429 for `seconds` from `now` (0 ends it). */
    limitFor(seconds: number, now: number): void {
      rateLimitedUntil = seconds === 0 ? null : now + seconds * 1000;
    },
    /** Seconds left of the 429 period at `now`, or null when there is none. */
    limitedFor(now: number): number | null {
      if (rateLimitedUntil === null || rateLimitedUntil <= now) return null;
      return Math.max(1, Math.ceil((rateLimitedUntil - now) / 1000));
    },
    limitedUntil(now: number): string | null {
      return rateLimitedUntil !== null && rateLimitedUntil > now
        ? new Date(rateLimitedUntil).toISOString()
        : null;
    },
    set(next: Partial<Faults>): Faults {
      Object.assign(current, next);
      return { ...current };
    },
    storageFails: () => roll(current.storage_fail_rate),
    connectionResets: () => roll(current.connection_reset_rate),
    /** The planted rent error for the charge now running; cleared once taken. */
    takeRentError(): number {
      const e = current.rent_error_paise;
      current.rent_error_paise = 0;
      return e;
    },
  };
}
export type FaultSwitch = ReturnType<typeof faultSwitch>;
