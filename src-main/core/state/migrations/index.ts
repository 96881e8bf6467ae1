import type { Migration, MigrationRange } from '../../../shared-node/sqlite';
import { APP_UI_MIGRATIONS } from '../../app/migrations';
import { CORE_KB_MIGRATIONS } from '../../kb/migrations';
import { LEADS_MIGRATIONS } from '../../leads/migrations';
import { REMOTE_INDEX_MIGRATIONS } from '../../remote-index/migrations';
import { SERVICE_MIGRATIONS } from '../../service/migrations';
import { STATEMENT_MIGRATIONS } from '../../statement/migrations';
import { SYNC_MIGRATIONS } from '../../sync/state/migrations';

/**
 * The app database's modules and their blocks of migration ids. Each module exports its own list;
 * this registry only places them. A released migration is never edited: a change is a new id
 * (test/state/migrations.test.ts upgrades the schema of every release and compares it with a fresh one).
 */
export const APP_MIGRATION_RANGES: readonly MigrationRange[] = [
  {
    owner: 'sync engine (folders, files, journal, activity)',
    first: 1,
    last: 89,
    migrations: SYNC_MIGRATIONS,
  },
  { owner: 'service layer (settings, offline cache)', first: 90, last: 99, migrations: SERVICE_MIGRATIONS },
  { owner: 'knowledge entries and outbox', first: 100, last: 199, migrations: CORE_KB_MIGRATIONS },
  { owner: 'leads', first: 200, last: 299, migrations: LEADS_MIGRATIONS },
  { owner: 'app settings and UI', first: 300, last: 399, migrations: APP_UI_MIGRATIONS },
  { owner: 'remote index', first: 400, last: 499, migrations: REMOTE_INDEX_MIGRATIONS },
  {
    owner: 'statement (me reads, usage days, file lives)',
    first: 500,
    last: 599,
    migrations: STATEMENT_MIGRATIONS,
  },
];

export const APP_MIGRATIONS: Migration[] = APP_MIGRATION_RANGES.flatMap((r) => r.migrations);
