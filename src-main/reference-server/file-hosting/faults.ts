/** Fault injection (`PUT /__admin/v1/faults`): a share of uploads fails in the store or loses its connection. */
export interface Faults {
  storage_fail_rate: number;
  connection_reset_rate: number;
}

export function faultSwitch() {
  // Kept in memory: faults are a test's setting for the run in progress, not state to survive a restart.
  const current: Faults = { storage_fail_rate: 0, connection_reset_rate: 0 };
  const roll = (rate: number) => rate > 0 && Math.random() < rate;
  return {
    current: (): Faults => ({ ...current }),
    set(next: Partial<Faults>): Faults {
      Object.assign(current, next);
      return { ...current };
    },
    storageFails: () => roll(current.storage_fail_rate),
    connectionResets: () => roll(current.connection_reset_rate),
  };
}
export type FaultSwitch = ReturnType<typeof faultSwitch>;
