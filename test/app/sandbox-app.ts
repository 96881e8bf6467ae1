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
