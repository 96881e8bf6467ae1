import { randomBytes } from 'node:crypto';
import { osKeychain, type SecretStore } from '../../src-main/core/secrets/keychain';

/** A keychain in memory, for tests that are not about the keychain; `keys()` lists what was stored. */
export function memorySecrets(): SecretStore & { keys(): string[]; m: Map<string, string> } {
  const m = new Map<string, string>();
  return {
    get: (a) => m.get(a) ?? null,
    set: (a, s) => void m.set(a, s),
    delete: (a) => m.delete(a),
    keys: () => [...m.keys()],
    m,
  };
}

/** A keychain service of its own per test run, removed afterwards (the real Secret Service under D-Bus). */
export function testKeychain(): SecretStore & { cleanup(): void } {
  const store = osKeychain(`assets-sync-test-${randomBytes(4).toString('hex')}`);
  const used = new Set<string>();
  return {
    get: (a) => store.get(a),
    set: (a, s) => {
      used.add(a);
      store.set(a, s);
    },
    delete: (a) => store.delete(a),
    cleanup: () => {
      for (const a of used) store.delete(a);
    },
  };
}
