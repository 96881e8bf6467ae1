import type { SecretStore } from '../../src-main/core/secrets/keychain';

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
