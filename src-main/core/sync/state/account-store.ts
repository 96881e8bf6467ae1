import type { Db } from '../../../shared-node/sqlite';
import { statements } from '../../../shared-node/statements';

/**
 * Which account the rows' remote ids belong to: the service (its base URL, or a stable name for the
 * embedded sandbox, whose port changes on every start) and the client id `/me` answered with.
 */
export interface SyncAccount {
  service: string;
  clientId: number;
}

export const sameAccount = (a: SyncAccount | null, b: SyncAccount): boolean =>
  a !== null && a.service === b.service && a.clientId === b.clientId;

/** In words for the activity log; the sandbox's service name is a random id, shown shortened. */
export const describeAccount = (a: SyncAccount): string =>
  a.service.startsWith('sandbox:')
    ? `the local sandbox (${a.service.slice('sandbox:'.length, 'sandbox:'.length + 8)}, client ${a.clientId})`
    : `client ${a.clientId} at ${a.service}`;

export function accountStore(db: Db, now: () => number = Date.now) {
  const prep = statements(db);
  return {
    get(): SyncAccount | null {
      return (
        prep<[], SyncAccount>('SELECT service, client_id AS clientId FROM sync_account WHERE id = 1').get() ??
        null
      );
    },
    set(a: SyncAccount): void {
      prep(
        `INSERT INTO sync_account (id, service, client_id, since) VALUES (1, ?, ?, ?)
           ON CONFLICT(id) DO UPDATE SET service = excluded.service, client_id = excluded.client_id, since = excluded.since`,
      ).run(a.service, a.clientId, now());
    },
  };
}

export type AccountStore = ReturnType<typeof accountStore>;
