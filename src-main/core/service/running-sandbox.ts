import { join } from 'node:path';
import type { SecretStore } from '../secrets/keychain';
import type { Connection } from './connection';
import { createFileApiClient } from './file-api-client';
import { rememberedPort, sandboxKeyAccount } from './sandbox';

/**
 * The sandbox another process (the app) is running on this data folder, if any: its address from the
 * port file, its key from the keychain, and proof that the two belong together (a /me with that key
 * answers). A command that finds it uses it instead of starting a second server on the same data,
 * and does not stop it when it ends: it is not its own.
 */
export async function runningSandbox(
  dataDir: string,
  secrets: SecretStore,
  cacheSource: string,
): Promise<Connection | null> {
  const dir = join(dataDir, 'sandbox');
  const port = rememberedPort(dir);
  if (port === null) return null;
  let apiKey: string | null;
  try {
    apiKey = secrets.get(sandboxKeyAccount(dir));
  } catch {
    return null;
  }
  if (!apiKey) return null;
  const baseUrl = `http://127.0.0.1:${port}`;
  // Nobody listening answers at once (connection refused); a stranger on the port refuses the key.
  const me = await createFileApiClient({ baseUrl, apiKey, timeoutMs: 3_000, retries: 0 }).me();
  if (!me.ok) return null;
  return { kind: 'sandbox', baseUrl, apiKey, cacheSource, origin: 'sandbox', close: async () => {} };
}

/** `http://localhost:P` and `http://127.0.0.1:P` name the same sandbox. */
export function isSandboxAddress(baseUrl: string, sandbox: Connection): boolean {
  const a = new URL(baseUrl);
  const b = new URL(sandbox.baseUrl);
  const local = (h: string) => (h === 'localhost' || h === '[::1]' ? '127.0.0.1' : h);
  return a.protocol === b.protocol && local(a.hostname) === local(b.hostname) && a.port === b.port;
}
