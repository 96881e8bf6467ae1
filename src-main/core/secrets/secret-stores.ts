import { join } from 'node:path';
import type { SecretStoreStatus } from '../../../src-shared/contract/secrets';
import { type AppError, appError, err, ok, type Result } from '../../../src-shared/errors';
import { encryptedFileStore, SECRETS_FILE_NAME, SecretStoreError } from './encrypted-file';
import { osKeychain, type SecretStore } from './keychain';

/**
 * The secret store the app uses, chosen explicitly and never by falling back in silence:
 * - `ASSETS_SECRET_STORE=keychain|file` says which (for services and scripts);
 * - else an encrypted file already made in the data folder (`secrets.enc`) means it was chosen before;
 * - else the OS keychain. A keychain that fails stays an error that says how to choose the file.
 * The file is unlocked by `ASSETS_SECRETS_PASSPHRASE` (services) or by the person (Settings → Secrets).
 */
export interface SwitchableSecrets extends SecretStore {
  status(): SecretStoreStatus;
  /** Makes (or opens) the encrypted file with this passphrase and uses it from now on. */
  useEncryptedFile(passphrase: string): Result<SecretStoreStatus, AppError>;
  unlock(passphrase: string): Result<SecretStoreStatus, AppError>;
  /** After a switch or an unlock: what failed for want of secrets may try again. */
  onChange(listener: () => void): () => void;
  /** Listeners of `onChange` that threw: logged once, counted, never rethrown (the switch is done). */
  readonly listenerFailures: number;
}

const asAppError = (e: unknown): AppError =>
  e instanceof SecretStoreError ? appError(e.code, e.message) : appError('SECRETS', (e as Error).message);

export function chooseSecretStore(
  dataDir: string,
  env: NodeJS.ProcessEnv = process.env,
  keychain: SecretStore = osKeychain(),
  log: (line: string) => void = (line) => process.stderr.write(`assets-sync: ${line}\n`),
): SwitchableSecrets {
  const file = encryptedFileStore(join(dataDir, SECRETS_FILE_NAME));
  const choice = env.ASSETS_SECRET_STORE?.trim().toLowerCase();
  const listeners = new Set<() => void>();
  const fromEnv = Boolean(env.ASSETS_SECRETS_PASSPHRASE);
  let kind: 'keychain' | 'encrypted-file' =
    choice === 'file' || (choice !== 'keychain' && file.exists()) ? 'encrypted-file' : 'keychain';
  let problem: AppError | null =
    choice && choice !== 'file' && choice !== 'keychain'
      ? appError('SECRETS-CHOICE', `ASSETS_SECRET_STORE must be "keychain" or "file", not "${choice}".`)
      : null;
  if (!problem && kind === 'encrypted-file' && env.ASSETS_SECRETS_PASSPHRASE) {
    try {
      // Asked for by the environment: made when missing, opened when present.
      if (file.exists()) file.unlock(env.ASSETS_SECRETS_PASSPHRASE);
      else file.create(env.ASSETS_SECRETS_PASSPHRASE);
    } catch (e) {
      problem = asAppError(e);
    }
  }
  const current = (): SecretStore => {
    if (problem && problem.code === 'SECRETS-CHOICE')
      throw Object.assign(new Error(problem.message), { code: problem.code });
    return kind === 'keychain' ? keychain : file;
  };
  const status = (): SecretStoreStatus => ({
    kind,
    locked: kind === 'encrypted-file' && file.locked(),
    file: kind === 'encrypted-file' ? file.file : null,
    passphraseFromEnv: fromEnv,
    problem,
  });
  let listenerFailures = 0;
  const changed = () => {
    for (const l of listeners) {
      try {
        l();
      } catch (e) {
        // The store has switched or unlocked: a listener's failure must not turn that into an error.
        if (++listenerFailures === 1)
          log(
            `listener-failed: a listener of the secret store's changes failed (said once; each is counted): ${e instanceof Error ? e.message : String(e)}`,
          );
      }
    }
  };
  return {
    get: (a) => current().get(a),
    set: (a, s) => current().set(a, s),
    delete: (a) => current().delete(a),
    status,
    useEncryptedFile(passphrase) {
      if (choice === 'keychain')
        return err(
          appError('SECRETS-CHOICE', 'ASSETS_SECRET_STORE=keychain is set for this app: change it there.'),
        );
      try {
        file.create(passphrase);
      } catch (e) {
        return err(asAppError(e));
      }
      kind = 'encrypted-file';
      problem = null;
      changed();
      return ok(status());
    },
    unlock(passphrase) {
      if (kind !== 'encrypted-file')
        return err(
          appError('SECRETS-NOT-FILE', 'The secrets are in the system keychain: there is nothing to unlock.'),
        );
      try {
        file.unlock(passphrase);
      } catch (e) {
        return err(asAppError(e));
      }
      problem = null;
      changed();
      return ok(status());
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get listenerFailures() {
      return listenerFailures;
    },
  };
}

/** A store given from outside (tests, benchmarks): it reports itself as the keychain and cannot switch. */
export function fixedSecrets(store: SecretStore): SwitchableSecrets {
  const status = (): SecretStoreStatus => ({
    kind: 'keychain',
    locked: false,
    file: null,
    passphraseFromEnv: false,
    problem: null,
  });
  const refuse = () => err(appError('SECRETS-FIXED', 'This app was started with its own secret store.'));
  return {
    ...store,
    get: store.get,
    set: store.set,
    delete: store.delete,
    status,
    useEncryptedFile: refuse,
    unlock: refuse,
    onChange: () => () => {},
    listenerFailures: 0,
  };
}

export const isSwitchable = (s: SecretStore): s is SwitchableSecrets =>
  typeof (s as Partial<SwitchableSecrets>).useEncryptedFile === 'function';
