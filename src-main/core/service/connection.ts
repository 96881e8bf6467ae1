import { type AppError, appError, err, ok, type Result } from '../../../src-shared/errors';
import type { SecretStore } from '../secrets/keychain';
import { runningSandboxAt } from './running-sandbox';
import { SETTING, type ServiceSettingsStore } from './settings';
import { shareSandbox } from './shared-sandbox';

/** Which account the app talks to. */
export interface Connection {
  kind: 'sandbox' | 'account';
  baseUrl: string;
  apiKey: string;
  /** Key of this account's rows in the offline cache: the sandbox's port changes on every start. */
  cacheSource: string;
  /** Where the key came from, for `status` and the UI (never the key itself). */
  origin: 'env' | 'keychain' | 'sandbox';
  /** Present for the sandbox: the admin token it serves with (memory only). */
  readonly adminToken?: string | undefined;
  /** The sandbox: whether this process runs it now (it alone may reset it), and which process does. */
  readonly startedHere?: boolean;
  readonly ownerPid?: number | null;
  close(): Promise<void>;
}

export const SANDBOX_CACHE_SOURCE = 'sandbox';

/** The keychain account of a real account's key. */
export const apiKeyAccount = (baseUrl: string) => `api-key:${baseUrl}`;

export interface ResolveOptions {
  dataDir: string;
  settings: ServiceSettingsStore;
  secrets: SecretStore;
  env?: NodeJS.ProcessEnv;
  /** `--base-url`: wins over ASSETS_BASE_URL and the saved account. */
  baseUrl?: string;
  /** False for a command that only reads: the sandbox's folder keeps its modes (private-files.ts). */
  tighten?: boolean;
  /** The sandbox's rate limit (tests and benchmarks); the service's 120/min by default. */
  sandboxRatePerMinute?: number;
}

/**
 * ASSETS_API_KEY (with --base-url, ASSETS_BASE_URL or the saved base URL) > the saved account (base URL
 * in settings, key in the keychain) > the data folder's sandbox. A base URL given without any key for it
 * is an error, not a silent fall back to the sandbox: the user asked for that account (unless it is the
 * address of the data folder's running sandbox). The sandbox is shared: the one running on this data
 * folder, whichever process runs it, is used; one is started only when none runs (shared-sandbox.ts).
 */
export async function resolveConnection(o: ResolveOptions): Promise<Result<Connection, AppError>> {
  const env = o.env ?? process.env;
  const given = o.baseUrl ?? (env.ASSETS_BASE_URL || undefined);
  const givenUrl = given !== undefined ? normalizeBaseUrl(given) : null;
  if (givenUrl && !givenUrl.ok) return givenUrl;
  const saved = o.settings.get(SETTING.accountBaseUrl);

  const envKey = env.ASSETS_API_KEY?.trim();
  if (envKey) {
    const baseUrl = givenUrl?.value ?? saved;
    if (!baseUrl) {
      return err(
        appError(
          'NO-BASE-URL',
          'ASSETS_API_KEY is set but no service address is: pass --base-url or set ASSETS_BASE_URL.',
        ),
      );
    }
    return ok(account(baseUrl, envKey, 'env'));
  }

  const baseUrl = givenUrl?.value ?? saved;
  if (baseUrl) {
    let key: string | null;
    try {
      key = o.secrets.get(apiKeyAccount(baseUrl));
    } catch (e) {
      return err(appError('KEYCHAIN-UNAVAILABLE', (e as Error).message));
    }
    if (!key) {
      // No key for that address: it may be the sandbox the app runs (its address, as the app shows it).
      const sandbox = givenUrl
        ? await runningSandboxAt(o.dataDir, o.secrets, baseUrl, SANDBOX_CACHE_SOURCE)
        : null;
      if (sandbox) return ok(sandbox);
      return err(
        appError(
          'NOT-LOGGED-IN',
          `No API key is stored for ${baseUrl}. Run "assets-sync login --base-url ${baseUrl}" or set ASSETS_API_KEY.`,
        ),
      );
    }
    return ok(account(baseUrl, key, 'keychain'));
  }

  return shareSandbox({
    dataDir: o.dataDir,
    secrets: o.secrets,
    ...(o.tighten === false ? { tighten: false } : {}),
    cacheSource: SANDBOX_CACHE_SOURCE,
    ...(o.sandboxRatePerMinute !== undefined ? { ratePerMinute: o.sandboxRatePerMinute } : {}),
  });
}

function account(baseUrl: string, apiKey: string, origin: 'env' | 'keychain'): Connection {
  return { kind: 'account', baseUrl, apiKey, cacheSource: baseUrl, origin, close: async () => {} };
}

/**
 * An http:// address of a host that is not this computer sends the API key unencrypted across the
 * network (every request carries it): refused unless the person confirmed, in the words of `confirm`
 * (the UI's button, the CLI's flag). Loopback by name (localhost, 127.0.0.0/8, ::1) needs nothing.
 */
export function plainHttpRefusal(baseUrl: string, confirm: string): AppError | null {
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' || isLoopbackHost(url.hostname)) return null;
  return appError(
    'PLAIN-HTTP',
    `${url.origin} is not this computer, and http:// would send the API key unencrypted: anyone on the network between could read it and use the account. Use the https:// address, or ${confirm} to send the key in clear anyway.`,
  );
}

function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]') return true;
  const parts = host.split('.');
  return (
    parts.length === 4 && parts[0] === '127' && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) < 256)
  );
}

/** `https://Host:443/x/` -> `https://host/x`: one spelling per address, so one keychain entry and one budget. */
export function normalizeBaseUrl(text: string): Result<string, AppError> {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return err(
      appError('BASE-URL-INVALID', `"${text}" is not a URL; expected e.g. https://files.example.com`),
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return err(
      appError(
        'BASE-URL-INVALID',
        `The service address must start with http:// or https://, not ${url.protocol}`,
      ),
    );
  }
  if (url.username || url.password || url.search || url.hash) {
    return err(appError('BASE-URL-INVALID', 'The service address takes no credentials, query or fragment.'));
  }
  return ok(`${url.origin}${url.pathname.replace(/\/+$/, '')}`);
}
