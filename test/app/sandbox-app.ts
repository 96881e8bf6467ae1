import { join } from 'node:path';
import { type AppService, createAppService } from '../../src-main/core/app/app-service';
import type { SecretStore } from '../../src-main/core/secrets/keychain';

/** A keychain in memory, for app-service tests that do not test the keychain. */
export function memorySecrets(): SecretStore {
  const m = new Map<string, string>();
  return { get: (a) => m.get(a) ?? null, set: (a, s) => void m.set(a, s), delete: (a) => m.delete(a) };
}

/** A real app service on `<root>/data`, connected to its own sandbox. */
export async function appOnSandbox(root: string): Promise<AppService> {
  const app = await createAppService({
    dataDir: join(root, 'data'),
    secrets: memorySecrets(),
    env: {},
    log: () => {},
    engine: { stabilityMs: 100 },
  });
  const r = await app.call('session.useSandbox', {});
  if (!r.ok) throw new Error(r.error.message);
  return app;
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
