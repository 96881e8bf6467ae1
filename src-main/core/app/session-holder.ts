import type { Session } from '../../../src-shared/contract';
import { type AppError, appError, err, ok, type Result } from '../../../src-shared/errors';
import type { SecretStore } from '../secrets/keychain';
import {
  apiKeyAccount,
  type Connection,
  normalizeBaseUrl,
  plainHttpRefusal,
  resolveConnection,
} from '../service/connection';
import { createFileApiClient, type FileApiClient, type RemoteEvent } from '../service/file-api-client';
import { budgetFor } from '../service/request-budget';
import { SETTING, type ServiceSettingsStore } from '../service/settings';

/** The app's choice on first run; the service layer's own setting holds a real account's base URL. */
const CHOICE_KEY = 'app.session.choice';

export interface Live {
  connection: Connection;
  client: FileApiClient;
}

/**
 * Which service the app talks to right now, and the switches between them. First run is the state
 * where neither an account nor the sandbox was ever chosen (and no ASSETS_API_KEY is set): the UI
 * then asks. Listeners hear every switch so that the engine and caches follow.
 */
export function createSessionHolder(o: {
  dataDir: string;
  settings: ServiceSettingsStore;
  secrets: SecretStore;
  env: NodeJS.ProcessEnv;
  baseUrl?: string;
  sandboxRatePerMinute?: number;
  /** Requests per minute of the shared budget of the address. */
  requestsPerMinute: () => number;
  /** Called for every request sent (the UI shows the budget in use). */
  onRequest?: (method: string, path: string) => void;
  /** Called for every reply with its HTTP status (Activity's "slow down" periods). */
  onReply?: (status: number) => void;
  /** What the connection's replies show about its files goes here (the remote index's follower). */
  onRemote?: (connection: Connection) => (event: RemoteEvent) => void;
  /** `onRemote` threw: the app's log says so (the call's result stands). */
  onRemoteError?: (event: RemoteEvent, error: unknown) => void;
}) {
  let live: Live | null = null;
  let accountName: string | null = null;
  const listeners = new Set<(live: Live | null) => void>();

  const chosen = () =>
    !!o.env.ASSETS_API_KEY?.trim() ||
    !!o.baseUrl ||
    !!o.settings.get(SETTING.accountBaseUrl) ||
    o.settings.get(CHOICE_KEY) === 'sandbox';

  const switchTo = async (next: Live | null) => {
    const previous = live;
    live = next;
    accountName = null;
    for (const l of listeners) l(next);
    await previous?.connection.close();
  };

  const open = async (): Promise<Result<Live, AppError>> => {
    const resolved = await resolveConnection({
      dataDir: o.dataDir,
      settings: o.settings,
      secrets: o.secrets,
      env: o.env,
      ...(o.baseUrl ? { baseUrl: o.baseUrl } : {}),
      ...(o.sandboxRatePerMinute !== undefined ? { sandboxRatePerMinute: o.sandboxRatePerMinute } : {}),
    });
    if (!resolved.ok) return resolved;
    const connection = resolved.value;
    // The shared budget of the address at the rate of the settings; the client's pacer asks budgetFor
    // for it on every request (a budget leased for the address may replace it), so none is passed.
    budgetFor(connection.baseUrl, 'files', { perMinute: o.requestsPerMinute() });
    const client = createFileApiClient({
      baseUrl: connection.baseUrl,
      apiKey: connection.apiKey,
      ...(o.onRequest ? { onRequest: o.onRequest } : {}),
      ...(o.onReply ? { onReply: (_m: string, _p: string, status: number) => o.onReply?.(status) } : {}),
      ...(o.onRemote ? { onRemote: o.onRemote(connection) } : {}),
      ...(o.onRemoteError ? { onRemoteError: o.onRemoteError } : {}),
    });
    const next = { connection, client };
    await switchTo(next);
    return ok(next);
  };

  return {
    get live(): Live | null {
      return live;
    },
    /** Resumes the last choice at start-up; stays at first run when there was none. */
    async restore(): Promise<Result<Session, AppError>> {
      if (!chosen()) return ok(this.describe());
      const r = await open();
      return r.ok ? ok(this.describe()) : r;
    },
    async openSandbox(): Promise<Result<Session, AppError>> {
      o.settings.delete(SETTING.accountBaseUrl);
      o.settings.set(CHOICE_KEY, 'sandbox');
      // Already on it: a second open would find this process's own sandbox and lean on it.
      if (live?.connection.kind === 'sandbox') return ok(this.describe());
      const r = await open();
      return r.ok ? ok(this.describe()) : r;
    },
    /** Checks the key with /me before anything is stored: a refused key leaves no trace. */
    async connect(
      baseUrlText: string,
      apiKey: string,
      confirmed: { allowPlainHttp?: boolean } = {},
    ): Promise<Result<Session, AppError>> {
      const baseUrl = normalizeBaseUrl(baseUrlText);
      if (!baseUrl.ok) return baseUrl;
      const clear = confirmed.allowPlainHttp ? null : plainHttpRefusal(baseUrl.value, 'confirm');
      if (clear) return err(clear);
      const probe = createFileApiClient({ baseUrl: baseUrl.value, apiKey, timeoutMs: 15_000, retries: 0 });
      const me = await probe.me();
      if (!me.ok) {
        const e = me.error;
        return err(
          appError(
            e.code,
            e.code === 'UNAUTHENTICATED'
              ? `The service at ${baseUrl.value} refused this API key. Check that it was copied whole and is not revoked.`
              : e.code === 'NETWORK' || e.code === 'TIMEOUT'
                ? `No answer from ${baseUrl.value}: check the address and the network.`
                : e.message,
          ),
        );
      }
      try {
        o.secrets.set(apiKeyAccount(baseUrl.value), apiKey);
      } catch (e) {
        return err(appError('KEYCHAIN-UNAVAILABLE', (e as Error).message));
      }
      o.settings.set(SETTING.accountBaseUrl, baseUrl.value);
      o.settings.set(CHOICE_KEY, 'account');
      const r = await open();
      if (r.ok) accountName = me.value.client.name;
      return r.ok ? ok(this.describe()) : r;
    },
    async disconnect(): Promise<Result<Session, AppError>> {
      const baseUrl = o.settings.get(SETTING.accountBaseUrl);
      if (baseUrl) {
        try {
          o.secrets.delete(apiKeyAccount(baseUrl));
        } catch {
          // The keychain may be locked; the setting below still forgets the account.
        }
      }
      o.settings.delete(SETTING.accountBaseUrl);
      o.settings.delete(CHOICE_KEY);
      await switchTo(null);
      return ok(this.describe());
    },
    /** Closes the connection without forgetting the choice (sandbox reset, settings that need a new client). */
    async suspend(): Promise<void> {
      await switchTo(null);
    },
    /** The sandbox is the saved choice (whether or not it runs: its port may be held by another program). */
    sandboxChosen(): boolean {
      return !o.settings.get(SETTING.accountBaseUrl) && o.settings.get(CHOICE_KEY) === 'sandbox';
    },
    setAccountName(name: string | null) {
      accountName = name;
    },
    describe(): Session {
      if (!live) return { kind: 'none', baseUrl: null, keySource: null, accountName: null };
      return {
        kind: live.connection.kind,
        baseUrl: live.connection.baseUrl,
        keySource: live.connection.origin,
        accountName,
      };
    },
    onChange(listener: (live: Live | null) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close(): Promise<void> {
      await switchTo(null);
      listeners.clear();
    },
  };
}
export type SessionHolder = ReturnType<typeof createSessionHolder>;
