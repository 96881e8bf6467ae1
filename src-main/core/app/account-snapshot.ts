import type { Account } from '../../../src-shared/api/file-hosting';
import type { CachedAccount } from '../../../src-shared/contract';
import type { ServiceCache } from '../service/cache';
import type { EventBus } from './event-bus';

/**
 * The one account snapshot of the app: the latest /me it holds. Every /me answer of the app's clients
 * comes here (the session holder's `onRemote`: the Account view's refresh, the engine's poll while
 * paused, its start), is stored for offline use and goes out as `account.changed`; the banner, the
 * sidebar, the Account and Usage views and the tray read it, and the engine's pause follows it
 * (`onSeen`), so a top-up seen by any read resumes uploads at once and no view disagrees with another.
 */
export interface AccountSnapshot {
  /** The latest copy for `source` (the current connection's), null when none was ever read. */
  current(source: string | null): CachedAccount;
  /** A /me answer of a client of the connection whose rows live under `source`. */
  seen(source: string, account: Account, at?: Date): void;
  onSeen(listener: (source: string, account: Account) => void): () => void;
}

export function createAccountSnapshot(o: { cache: ServiceCache; bus: EventBus }): AccountSnapshot {
  const listeners = new Set<(source: string, account: Account) => void>();
  const current = (source: string | null): CachedAccount => {
    const stored = source ? o.cache.getAccount(source) : null;
    return {
      value: stored?.value ?? null,
      fetchedAt: stored ? Date.parse(stored.fetchedAt) : null,
      offline: false,
      error: null,
    };
  };
  return {
    current,
    seen(source, account, at = new Date()) {
      o.cache.putAccount(source, account, at);
      o.bus.emit('account.changed', { value: account, fetchedAt: at.getTime(), offline: false, error: null });
      for (const l of listeners) l(source, account);
    },
    onSeen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
