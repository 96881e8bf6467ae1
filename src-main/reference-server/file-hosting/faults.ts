/**
 * Fault injection (`PUT /__admin/v1/faults`): a share of uploads fails in the store or loses its
 * connection, and a planted error in the next daily charge (`rent_error_paise`, issue 35: a statement's
 * check of each day must flag it).
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
  return {
    current: (): Faults => ({ ...current }),
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
