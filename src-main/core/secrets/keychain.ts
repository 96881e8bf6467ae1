import { Entry } from '@napi-rs/keyring';

/**
 * Secrets (API keys, bot tokens, signing secrets) live in the OS keychain only: never in SQLite,
 * config files, logs or error text. Accounts are opaque names such as `api-key:<base_url>`.
 */
export interface SecretStore {
  get(account: string): string | null;
  set(account: string, secret: string): void;
  delete(account: string): boolean;
}

export const KEYCHAIN_SERVICE = 'assets-sync';

export class KeychainUnavailableError extends Error {
  readonly code = 'KEYCHAIN-UNAVAILABLE';
  constructor(action: string) {
    // The cause from the platform can echo the secret's label but never the secret itself.
    super(
      `The system keychain could not ${action}. On Linux a Secret Service (gnome-keyring or KeePassXC) must be running and unlocked; on a machine without one, keep secrets in an encrypted file instead (Settings → Secrets, or ASSETS_SECRET_STORE=file with ASSETS_SECRETS_PASSPHRASE).`,
    );
  }
}

export function osKeychain(service = KEYCHAIN_SERVICE): SecretStore {
  return {
    get(account) {
      try {
        return new Entry(service, account).getPassword() ?? null;
      } catch {
        throw new KeychainUnavailableError('be read');
      }
    },
    set(account, secret) {
      try {
        new Entry(service, account).setPassword(secret);
      } catch {
        throw new KeychainUnavailableError('store the secret');
      }
    },
    delete(account) {
      try {
        return new Entry(service, account).deletePassword();
      } catch {
        throw new KeychainUnavailableError('delete the secret');
      }
    },
  };
}
