import type { Migration } from '../../../shared-node/sqlite';
import { APP_UI_MIGRATIONS } from '../../app/migrations';
import { KB_MIGRATIONS } from '../../kb/migrations';
import { LEADS_MIGRATIONS } from '../../leads/migrations';
import { SERVICE_MIGRATIONS } from '../../service/migrations';
import { SYNC_MIGRATIONS } from '../../sync/state/migrations';

/**
 * The app database's migrations. Ranges: 1-89 sync engine (folders, files, journal, activity),
 * 90-99 service layer (settings, offline cache), 100-199 knowledge entries and outbox, 200-299 leads,
 * 300-399 app settings/UI cache.
 * Each module exports its own list; this registry only concatenates them.
 */
export const APP_MIGRATIONS: Migration[] = [
  ...SYNC_MIGRATIONS,
  ...SERVICE_MIGRATIONS,
  ...KB_MIGRATIONS,
  ...LEADS_MIGRATIONS,
  ...APP_UI_MIGRATIONS,
];
