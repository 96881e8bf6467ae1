import type { Migration } from '../../shared-node/sqlite';

/**
 * Tables of the service client (ids 90-99 of the app database): settings such as the saved
 * account's base URL, and the offline copy of what the service last said. No secret is ever here:
 * API keys live in the keychain under `api-key:<base_url>`.
 */
export const SERVICE_MIGRATIONS: Migration[] = [
  {
    id: 90,
    name: 'service settings',
    up: `
      CREATE TABLE service_settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
    `,
  },
  {
    id: 91,
    name: 'service offline cache',
    up: `
      CREATE TABLE service_cache (
        source TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('account', 'files', 'usage')),
        scope TEXT NOT NULL,
        json TEXT NOT NULL,
        fetched_at TEXT NOT NULL,
        PRIMARY KEY (source, kind, scope)
      );
    `,
  },
  {
    id: 97,
    name: "service offline cache: the files listing's pages go (the remote index owns the account's files)",
    up: `DELETE FROM service_cache WHERE kind = 'files';`,
  },
];
