import type { AppService } from '../../src-main/core/app/app-service';
import type { SecretStore } from '../../src-main/core/secrets/keychain';

/** A keychain in memory (the app's own tests; the keychain itself is tested under D-Bus). */
export function memorySecrets(): SecretStore {
  const m = new Map<string, string>();
  return { get: (a) => m.get(a) ?? null, set: (a, s) => void m.set(a, s), delete: (a) => m.delete(a) };
}

/**
 * Resolves once `check` holds: checked at start and after each event the app sends (no clock but the
 * deadline), so a test waits for what the app tells, not for a guessed time.
 */
export function untilEvent(
  app: AppService,
  what: string,
  check: () => Promise<boolean> | boolean,
  ms = 60_000,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let busy = false;
    let again = false;
    const timer = setTimeout(() => {
      off();
      reject(new Error(`timed out waiting for ${what}`));
    }, ms);
    const run = async () => {
      if (busy) {
        again = true;
        return;
      }
      busy = true;
      try {
        do {
          again = false;
          if (await check()) {
            clearTimeout(timer);
            off();
            resolve();
            return;
          }
        } while (again);
      } catch (e) {
        clearTimeout(timer);
        off();
        reject(new Error(`${what}: ${String(e)}`));
      } finally {
        busy = false;
      }
    };
    const off = app.subscribe(() => void run());
    void run();
  });
}
