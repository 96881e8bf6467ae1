import { useAccount } from './account-store';
import { useClock } from './clock-store';
import { useSync } from './sync-store';

/** The first paint of a connected app shows the stored copies at once, then fresh ones. */
export async function loadConnected(): Promise<void> {
  await Promise.all([useAccount.getState().loadAccount(false), useSync.getState().load()]);
  void useAccount
    .getState()
    .loadAccount(true)
    .then(() => useClock.getState().load());
}
