import type { Db } from '../../shared-node/sqlite';
import type { SecretStore } from '../secrets/keychain';
import type { ServiceCache } from '../service/cache';
import type { ServiceSettingsStore } from '../service/settings';
import type { AccountSnapshot } from './account-snapshot';
import type { EventBus } from './event-bus';
import type { ServiceClockKeeper } from './service-clock';
import type { SessionHolder } from './session-holder';
import type { AppSettingsStore } from './settings-store';

/** What every section of the app shares. Built once by app-service.ts. */
export interface AppContext {
  readonly dataDir: string;
  readonly db: Db;
  readonly secrets: SecretStore;
  /** The process environment the app was started with (ASSETS_* overrides). */
  readonly env: NodeJS.ProcessEnv;
  readonly bus: EventBus;
  readonly session: SessionHolder;
  /** The app's own settings (concurrency, budget, theme...). */
  readonly settings: AppSettingsStore;
  /** The service layer's settings (the saved account). */
  readonly serviceSettings: ServiceSettingsStore;
  /** The last account and usage the service sent, for offline use. */
  readonly cache: ServiceCache;
  /** The latest /me the app holds: what every view and the engine's pause derive from. */
  readonly account: AccountSnapshot;
  /** The service's clock (countdowns to its deadlines use it, not the machine's). */
  readonly clock: ServiceClockKeeper;
  /** Lines for the app's log (standard error); never secrets. */
  log(line: string): void;
  /** Where the current connection's rows live in the caches ('sandbox' or the base URL). */
  cacheSource(): string | null;
}
