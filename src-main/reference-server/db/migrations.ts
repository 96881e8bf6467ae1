import type { Migration, MigrationRange } from '../../shared-node/sqlite';
import { MODULES } from '../modules';
import { BASE_MIGRATIONS } from './base-migrations';

/** The reference server database's blocks of migration ids: the base (1-9), then each module's own. */
export const SERVER_MIGRATION_RANGES: readonly MigrationRange[] = [
  { owner: 'base (server_meta)', first: 1, last: 9, migrations: BASE_MIGRATIONS },
  ...MODULES.map((m) => ({ owner: m.name, ...m.migrationIds, migrations: m.migrations })),
];

export const SERVER_MIGRATIONS: Migration[] = SERVER_MIGRATION_RANGES.flatMap((r) => r.migrations);
