import { join } from 'node:path';
import { type AppError, appError, err, ok, type Result } from '../../../src-shared/errors';
import { openDataDir } from '../../shared-node/private-files';
import { type Db, NewerDatabaseError, newerSchema, openDatabase } from '../../shared-node/sqlite';
import { createRemoteIndex } from '../remote-index/remote-index';
import type { SecretStore } from '../secrets/keychain';
import { chooseSecretStore } from '../secrets/secret-stores';
import { type ServiceCache, serviceCache } from '../service/cache';
import { apiKeyAccount, type Connection, resolveConnection } from '../service/connection';
import { createFileApiClient, type FileApiClient } from '../service/file-api-client';
import { closePools } from '../service/http-pool';
import { SETTING, serviceSettingsStore } from '../service/settings';
import { APP_MIGRATIONS } from '../state/migrations';
import { serviceIdentity } from '../sync/account/service-identity';

/**
 * The app's state on this machine, opened for a command that runs once (the CLI): the database with
 * every module's migrations, the offline cache, the keychain, and the saved account. The long-running
 * shells use the app service instead; both read and write the same rows.
 */
export interface LocalState {
  readonly dataDir: string;
  readonly db: Db;
  /** The last account, usage and listing the service sent, for offline use. */
  readonly cache: ServiceCache;
  readonly secrets: SecretStore;
  /** False for a command that only reads: no existing folder or file gets another mode. */
  readonly tighten: boolean;
  /** The base URL of the account logged in to; null means the embedded sandbox. */
  savedAccount(): string | null;
  /** Keeps the key in the keychain (throws KEYCHAIN-UNAVAILABLE) and makes this the saved account. */
  rememberAccount(baseUrl: string, apiKey: string): void;
  /** Removes the key from the keychain (true when there was one; throws when the keychain is unreachable),
   * forgets the account if it was the saved one, and clears its offline copy. */
  forgetAccount(baseUrl: string): boolean;
  close(): Promise<void>;
}

export function openLocalState(
  dataDir: string,
  /** Default: the store chosen for this folder, once the folder is accepted (nothing is written to a refused one). */
  given?: SecretStore,
  /** A command that only reads (status, files, account, usage) changes no mode on disk. */
  o: { readOnly?: boolean } = {},
): Result<LocalState, AppError> {
  const tighten = o.readOnly !== true;
  // A database a later version migrated: refused before the folder or a file in it is touched.
  const newer = newerSchema(join(dataDir, 'app.sqlite'), APP_MIGRATIONS);
  if (newer) return err(appError(newer.code, newer.message));
  const folder = openDataDir(dataDir, 'app.sqlite', tighten);
  if (!folder.ok) return folder;
  // Chosen after the folder is accepted: the encrypted file's store writes secrets.enc when it is
  // asked for by the environment, and a shared folder it was refused for got one (issue 32).
  const secrets = given ?? chooseSecretStore(dataDir, process.env);
  let db: Db;
  try {
    db = openDatabase(join(dataDir, 'app.sqlite'), APP_MIGRATIONS, { tighten });
  } catch (e) {
    if (e instanceof NewerDatabaseError) return err(appError(e.code, e.message));
    return err(appError('DATA-DIR', `The app state in ${dataDir} cannot be opened: ${(e as Error).message}`));
  }
  const settings = serviceSettingsStore(db);
  const cache = serviceCache(db);
  return ok({
    dataDir,
    db,
    cache,
    secrets,
    tighten,
    savedAccount: () => settings.get(SETTING.accountBaseUrl),
    rememberAccount(baseUrl, apiKey) {
      secrets.set(apiKeyAccount(baseUrl), apiKey);
      settings.set(SETTING.accountBaseUrl, baseUrl);
    },
    forgetAccount(baseUrl) {
      const removed = secrets.delete(apiKeyAccount(baseUrl));
      if (settings.get(SETTING.accountBaseUrl) === baseUrl) settings.delete(SETTING.accountBaseUrl);
      cache.clear(baseUrl);
      return removed;
    },
    async close() {
      db.close();
      await closePools();
    },
  });
}

/** A connection to the service (ASSETS_API_KEY > the saved account > the sandbox) and a client on it. */
export interface ServiceSession {
  readonly connection: Connection;
  readonly client: FileApiClient;
  /** Closes the client's sockets and, for the sandbox, stops it. */
  close(): Promise<void>;
}

export async function openServiceSession(
  state: LocalState,
  o: { baseUrl?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Result<ServiceSession, AppError>> {
  const resolved = await resolveConnection({
    dataDir: state.dataDir,
    settings: serviceSettingsStore(state.db),
    secrets: state.secrets,
    env: o.env ?? process.env,
    ...(o.baseUrl !== undefined ? { baseUrl: o.baseUrl } : {}),
    tighten: state.tighten,
  });
  if (!resolved.ok) return resolved;
  const connection = resolved.value;
  // This command's own uploads and deletes (rm, import-urls, sync) reach the remote index at once.
  const follow = createRemoteIndex(state.db).follower(serviceIdentity(connection, state.dataDir));
  return ok({
    connection,
    client: createFileApiClient({ baseUrl: connection.baseUrl, apiKey: connection.apiKey, onRemote: follow }),
    async close() {
      await closePools();
      await connection.close();
    },
  });
}
