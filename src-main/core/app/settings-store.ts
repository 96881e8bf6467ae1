import { DEFAULT_SETTINGS, type Settings, SettingsSchema } from '../../../src-shared/contract';
import type { Db } from '../../shared-node/sqlite';

/** Settings live in SQLite as one JSON row; a value that no longer validates falls back to the default. */
export function createSettingsStore(db: Db) {
  const read = db.prepare<[], { value: string }>("SELECT value FROM app_settings WHERE key = 'settings'");
  const write = db.prepare(
    "INSERT INTO app_settings (key, value) VALUES ('settings', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
  );
  return {
    get(): Settings {
      const row = read.get();
      if (!row) return { ...DEFAULT_SETTINGS };
      let stored: unknown;
      try {
        stored = JSON.parse(row.value);
      } catch {
        return { ...DEFAULT_SETTINGS };
      }
      const merged = SettingsSchema.safeParse({ ...DEFAULT_SETTINGS, ...(stored as object) });
      return merged.success ? merged.data : { ...DEFAULT_SETTINGS };
    },
    update(patch: Partial<Settings>): Settings {
      // A key sent as undefined (Electron IPC keeps them, JSON drops them) leaves that setting as is.
      const given = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
      const next = SettingsSchema.parse({ ...this.get(), ...given });
      write.run(JSON.stringify(next));
      return next;
    },
  };
}
export type AppSettingsStore = ReturnType<typeof createSettingsStore>;
