import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { type AppError, appError, err, ok, type Result } from '../../../src-shared/errors';
import { makePrivateDir } from '../../shared-node/private-files';
import type { SecretStore } from '../secrets/keychain';
import { httpJson } from './http-json';
import { closePools } from './http-pool';

/** Keychain account of the sandbox demo client's key (minted on every start, never written to a file). */
export const SANDBOX_KEY_ACCOUNT = 'sandbox-api-key';
/**
 * The same key under an account named for the sandbox's folder: another process on the same data
 * folder (the CLI while the app runs the sandbox) reads it to use the running sandbox
 * (running-sandbox.ts), and two data folders never read each other's.
 */
export const sandboxKeyAccount = (sandboxDir: string) => `sandbox-api-key:${sandboxDir}`;
/** The client the reference server seeds on a new data folder. */
export const SANDBOX_CLIENT_ID = 1;

export interface Sandbox {
  baseUrl: string;
  apiKey: string;
  /** Admin token of this run only (random, in memory): the app's "reset sandbox" and tests use it. */
  adminToken: string;
  dataDir: string;
  close(): Promise<void>;
}

const MintedKey = z.object({ api_key: z.string().min(1), key_id: z.number().int() });

/**
 * Starts the reference server in this process with its data under `<dataDir>/sandbox`, and mints a
 * fresh key for the demo client through the admin surface. The ready line's `demo.api_key` exists
 * only on a new folder, so relying on it would mean storing it; minting each time stores nothing.
 */
export async function startSandbox(opts: {
  dataDir: string;
  secrets?: SecretStore;
  ratePerMinute?: number;
  /** False: an existing folder keeps its modes (a command that only reads). */
  tighten?: boolean;
}): Promise<Result<Sandbox, AppError>> {
  const dir = join(opts.dataDir, 'sandbox');
  const tighten = opts.tighten ?? true;
  try {
    makePrivateDir(dir, tighten);
  } catch (e) {
    return err(appError('DATA-DIR', `The sandbox's folder ${dir} cannot be made: ${(e as Error).message}`));
  }
  const adminToken = randomBytes(24).toString('base64url');
  let server: Awaited<ReturnType<typeof import('../../reference-server/server').startReferenceServer>>;
  try {
    // Loaded on demand: a real account never loads the server's code.
    const { startReferenceServer } = await import('../../reference-server/server');
    const start = (port: number) =>
      startReferenceServer({
        host: '127.0.0.1',
        port,
        dataDir: dir,
        tightenDataDir: tighten,
        adminToken,
        ...(opts.ratePerMinute !== undefined ? { ratePerMinute: opts.ratePerMinute } : {}),
      });
    // The same port as last time when it is free, so that the CDN links the sandbox gave out keep
    // working after a restart; another port (and new links) only when something else holds it.
    const remembered = rememberedPort(dir);
    server = remembered ? await start(remembered).catch(() => start(0)) : await start(0);
    rememberPort(dir, new URL(server.baseUrl).port);
  } catch (e) {
    return err(
      appError(
        'SANDBOX-FAILED',
        `The local sandbox could not start (${e instanceof Error ? e.message : String(e)}). Its data is in ${dir}.`,
      ),
    );
  }
  const close = async () => {
    await closePools(new URL(server.baseUrl).origin);
    await server.close();
  };
  const minted = await mintKey(server.baseUrl, adminToken, SANDBOX_CLIENT_ID);
  if (!minted.ok) {
    await close();
    return minted;
  }
  try {
    opts.secrets?.set(SANDBOX_KEY_ACCOUNT, minted.value);
    opts.secrets?.set(sandboxKeyAccount(dir), minted.value);
  } catch {
    // Without a Secret Service the sandbox still works: its key is kept in memory for this run only.
  }
  return ok({ baseUrl: server.baseUrl, apiKey: minted.value, adminToken, dataDir: dir, close });
}

async function mintKey(
  baseUrl: string,
  adminToken: string,
  clientId: number,
): Promise<Result<string, AppError>> {
  const reply = await httpJson({
    url: `${baseUrl}/__admin/v1/clients/${clientId}/keys`,
    method: 'POST',
    headers: { 'x-admin-token': adminToken },
  });
  if (!reply.ok)
    return err(appError('SANDBOX-FAILED', `The local sandbox did not answer: ${reply.error.message}`));
  const { status, json } = reply.value;
  const parsed = status === 201 ? MintedKey.safeParse(json) : null;
  if (parsed?.success) return ok(parsed.data.api_key);
  return err(
    appError(
      'SANDBOX-FAILED',
      `The local sandbox did not mint a key for its demo client (HTTP ${status}). Reset the sandbox to start it afresh.`,
    ),
  );
}

const PORT_FILE = 'port';

/** The port the sandbox of `dir` listened on last (the running one's, while it runs). */
export function rememberedPort(dir: string): number | null {
  try {
    const port = Number(readFileSync(join(dir, PORT_FILE), 'utf8').trim());
    return Number.isInteger(port) && port > 0 && port < 65536 ? port : null;
  } catch {
    return null;
  }
}

function rememberPort(dir: string, port: string): void {
  try {
    writeFileSync(join(dir, PORT_FILE), `${port}\n`);
  } catch {
    // Only a convenience: without it the next start picks a free port.
  }
}
