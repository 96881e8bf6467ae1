import type { Db } from '../../shared-node/sqlite';
import { statements } from '../../shared-node/statements';

/** Names of the service client's settings (table `service_settings`). */
export const SETTING = {
  /** Base URL of the real account the user logged in to; absent means the embedded sandbox. */
  accountBaseUrl: 'account.base_url',
} as const;

/** The service client's own settings (which account it talks to); the user's app settings are `AppSettingsStore`. */
export interface ServiceSettingsStore {
  get(key: string): string | null;
  set(key: string, value: string): void;
  delete(key: string): void;
}

export function serviceSettingsStore(db: Db): ServiceSettingsStore {
  const prep = statements(db);
  const get = prep<[string], { value: string }>('SELECT value FROM service_settings WHERE key = ?');
  const put = prep(
    `INSERT INTO service_settings (key, value, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  );
  const del = prep('DELETE FROM service_settings WHERE key = ?');
  return {
    get: (key) => get.get(key)?.value ?? null,
    set: (key, value) => {
      put.run(key, value, new Date().toISOString());
    },
    delete: (key) => {
      del.run(key);
    },
  };
}
