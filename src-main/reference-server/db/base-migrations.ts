import type { Migration } from '../../shared-node/sqlite';

export const BASE_MIGRATIONS: Migration[] = [
  {
    id: 1,
    name: 'server_meta',
    up: 'CREATE TABLE server_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)',
  },
];
