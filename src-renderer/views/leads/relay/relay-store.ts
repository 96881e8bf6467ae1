import { create } from 'zustand';
import type { RejectedDelivery, RelayView } from '../../../../src-shared/contract/leads';
import { call } from '../../../api/core-ref';

interface RelayState {
  relay: RelayView | null;
  rejected: RejectedDelivery[] | null;
  load(): Promise<void>;
  loadRejected(): Promise<void>;
  hideRejected(): void;
}

/** Where this desk's leads come from, and what it refused (components select the slice they read). */
export const useRelay = create<RelayState>((set) => ({
  relay: null,
  rejected: null,
  async load() {
    const r = await call('leads.relay', {});
    if (r.ok) set({ relay: r.value });
  },
  async loadRejected() {
    const r = await call('leads.rejected', {});
    if (r.ok) set({ rejected: r.value.rejected });
  },
  hideRejected() {
    set({ rejected: null });
  },
}));

/** `leads.relay`: the relay's state changed (connected, a pull, a refusal). */
export function applyRelay(relay: RelayView): void {
  const before = useRelay.getState().relay;
  useRelay.setState({ relay });
  if (before && before.rejected !== relay.rejected && useRelay.getState().rejected !== null)
    void useRelay.getState().loadRejected();
}
