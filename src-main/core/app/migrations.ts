import { weekFromRates } from '../../../src-shared/domain/bwlimit';
import type { Migration } from '../../shared-node/sqlite';

/**
 * The app's own tables (range 300-399): its settings. (300 also made a view cache, dropped by 301:
 * the offline copies of account, usage and the files listing live in the service layer's cache.)
 */
export const APP_UI_MIGRATIONS: Migration[] = [
  {
    id: 300,
    name: 'app settings and view cache',
    up: `
      CREATE TABLE app_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE app_view_cache (
        base_url TEXT NOT NULL, kind TEXT NOT NULL, json TEXT NOT NULL, fetched_at INTEGER NOT NULL,
        PRIMARY KEY (base_url, kind)
      );
      CREATE TABLE app_remote_files (
        base_url TEXT NOT NULL, id INTEGER NOT NULL, bucket TEXT NOT NULL, name TEXT NOT NULL,
        size_bytes INTEGER NOT NULL, created_at TEXT NOT NULL, json TEXT NOT NULL,
        PRIMARY KEY (base_url, id)
      );
      CREATE INDEX app_remote_files_order ON app_remote_files (base_url, created_at DESC, id DESC);
    `,
  },
  {
    // The files listing moved to the service layer's offline cache (service_cache, migration 91), which
    // already held account and usage: one offline copy, not two. The next refresh fills it again.
    id: 301,
    name: 'drop the app view cache (the service cache holds the listing)',
    up: `
      DROP INDEX IF EXISTS app_remote_files_order;
      DROP TABLE IF EXISTS app_remote_files;
      DROP TABLE IF EXISTS app_view_cache;
    `,
  },
  {
    // Issue 23: the weekly schedule names kinds of hour (normal, limited, pause), not rates, so the
    // upload limit and the schedule stay apart. A schedule saved with rates is rewritten once: the
    // upload limit's rate (or off) is normal, pause stays, another rate is limited and becomes
    // bwScheduleLimit. Its hours were read on the machine's clock, so the zone stays local.
    id: 330,
    name: 'weekly schedule by kind of hour, apart from the upload limit',
    up: (db) => {
      const row = db
        .prepare<[], { value: string }>("SELECT value FROM app_settings WHERE key = 'settings'")
        .get();
      if (!row) return;
      let stored: Record<string, unknown>;
      try {
        stored = JSON.parse(row.value) as Record<string, unknown>;
      } catch {
        return;
      }
      const text = typeof stored.bwSchedule === 'string' ? stored.bwSchedule.trim() : '';
      if (text === '') return;
      const week = weekFromRates(text, typeof stored.bwlimit === 'string' ? stored.bwlimit : 'off');
      const next = week
        ? {
            ...stored,
            bwSchedule: week.schedule,
            ...(week.limitedRate ? { bwScheduleLimit: week.limitedRate } : {}),
          }
        : { ...stored, bwSchedule: '' };
      db.prepare("UPDATE app_settings SET value = ? WHERE key = 'settings'").run(JSON.stringify(next));
    },
  },
];
