import { useEffect, useState } from 'react';
import { create } from 'zustand';
import type { ServiceClock } from '../../src-shared/contract';
import { call } from '../api/core-ref';

/** The service's clock as the core measured it (Date headers, or the sandbox's admin clock). */
export const useClock = create<{ clock: ServiceClock; load(): Promise<void> }>((set) => ({
  clock: { offsetMs: 0, source: 'machine', measuredAt: null },
  async load() {
    const r = await call('clock.get', {});
    if (r.ok) set({ clock: r.value });
  },
}));

/** Re-renders every `everyMs` (and when the offset moves) with the service's current time. */
export function useServiceNow(everyMs = 30_000): number {
  const offset = useClock((s) => s.clock.offsetMs);
  const [machineNow, setMachineNow] = useState(Date.now);
  useEffect(() => {
    const t = setInterval(() => setMachineNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return machineNow + offset;
}

/** Re-renders every `everyMs` with the machine's time: for "updated x ago", measured on the core's clock. */
export function useMachineNow(everyMs = 15_000): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}
