import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the app keeps its SQLite state and the embedded sandbox's data: `--data-dir`, else
 * `ASSETS_SYNC_DATA_DIR`, else the platform's per-user data folder.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.ASSETS_SYNC_DATA_DIR) return env.ASSETS_SYNC_DATA_DIR;
  const home = env.HOME ?? homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Assets Sync');
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Assets Sync');
  return join(env.XDG_DATA_HOME ?? join(home, '.local', 'share'), 'assets-sync');
}
