import { join } from 'node:path';
import type { SecretStore } from '../secrets/keychain';
import type { Connection } from './connection';
import { createFileApiClient } from './file-api-client';
import { rememberedPort, sandboxKeyAccount } from './sandbox';
import { knock } from './sandbox-door';

/**
 * The sandbox another process runs on this data folder, found through the keychain: its address
 * from the port file, its key from the keychain, and proof that the two belong together (a /me with
 * that key answers). The way in where the sandbox has no door (Windows, a folder path too long for a
 * socket); sandbox-door.ts is the first. It is not this process's: closing the connection leaves it
 * running.
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
  return {
    kind: 'sandbox',
    baseUrl,
    apiKey,
    cacheSource,
    origin: 'sandbox',
    startedHere: false,
    ownerPid: null,
    close: async () => {},
  };
}

/**
 * The data folder's running sandbox when `baseUrl` is its address (given with --base-url and no key:
 * the address the app shows), else null. Its door first, then the keychain.
 */
export async function runningSandboxAt(
  dataDir: string,
  secrets: SecretStore,
  baseUrl: string,
  cacheSource: string,
): Promise<Connection | null> {
  const door = await knock(join(dataDir, 'sandbox'));
  if (door) {
    door.leave();
    if (!isSandboxAddress(baseUrl, door.baseUrl)) return null;
    return {
      kind: 'sandbox',
      baseUrl: door.baseUrl,
      apiKey: door.apiKey,
      cacheSource,
      origin: 'sandbox',
      adminToken: door.adminToken,
      startedHere: false,
      ownerPid: door.pid,
      close: async () => {},
    };
  }
  const keyed = await runningSandbox(dataDir, secrets, cacheSource);
  return keyed && isSandboxAddress(baseUrl, keyed.baseUrl) ? keyed : null;
}

/** `http://localhost:P` and `http://127.0.0.1:P` name the same sandbox. */
export function isSandboxAddress(baseUrl: string, sandboxUrl: string): boolean {
  const a = new URL(baseUrl);
  const b = new URL(sandboxUrl);
  const local = (h: string) => (h === 'localhost' || h === '[::1]' ? '127.0.0.1' : h);
  return a.protocol === b.protocol && local(a.hostname) === local(b.hostname) && a.port === b.port;
}
