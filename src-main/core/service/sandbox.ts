import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { z } from 'zod';
import { type AppError, appError, err, ok, type Result } from '../../../src-shared/errors';
import { makePrivateDir } from '../../shared-node/private-files';
import type { SecretStore } from '../secrets/keychain';
import { httpJson } from './http-json';
import { closePools } from './http-pool';
import { openDoor } from './sandbox-door';

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
  /** The admin token to serve with: a process taking over a sandbox another one ran keeps its token. */
  adminToken?: string;
}): Promise<Result<Sandbox, AppError>> {
  const dir = join(opts.dataDir, 'sandbox');
  const tighten = opts.tighten ?? true;
  try {
    makePrivateDir(dir, tighten);
  } catch (e) {
    return err(appError('DATA-DIR', `The sandbox's folder ${dir} cannot be made: ${(e as Error).message}`));
  }
  const adminToken = opts.adminToken ?? randomBytes(24).toString('base64url');
  const port = await sandboxPort(dir);
  if (!port.ok) return port;
  let server: Awaited<ReturnType<typeof import('../../reference-server/server').startReferenceServer>>;
  try {
    // Loaded on demand: a real account never loads the server's code.
    const { startReferenceServer } = await import('../../reference-server/server');
    server = await startReferenceServer({
      host: '127.0.0.1',
      port: port.value,
      dataDir: dir,
      tightenDataDir: tighten,
      adminToken,
      ...(opts.ratePerMinute !== undefined ? { ratePerMinute: opts.ratePerMinute } : {}),
    });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') return err(portTaken(port.value, dir));
    return err(
      appError(
        'SANDBOX-FAILED',
        `The local sandbox could not start (${e instanceof Error ? e.message : String(e)}). Its data is in ${dir}.`,
      ),
    );
  }
  let door: { close(): Promise<void> } | null = null;
  const close = async () => {
    await door?.close();
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
    // Without a Secret Service the sandbox still works: its key is kept in memory (and behind its door).
  }
  door = await openDoor(dir, { baseUrl: server.baseUrl, apiKey: minted.value, adminToken, pid: process.pid });
  return ok({ baseUrl: server.baseUrl, apiKey: minted.value, adminToken, dataDir: dir, close });
}

function portTaken(port: number, dir: string): AppError {
  return appError(
    'SANDBOX-PORT-TAKEN',
    `Port ${port}, where this data folder's sandbox serves its links, is used by another program. ` +
      `Close that program and try again; or reset the sandbox (a new port, new links). Its data is in ${dir}.`,
  );
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

/**
 * The port of the sandbox of `dir`, free to listen on: chosen once, on its first start, and kept in
 * `<dir>/port` for good, so every CDN link it gives out answers again whenever it runs (a reset starts
 * afresh). Chosen below Linux's ephemeral range (32768 and up), where other programs' outgoing
 * connections would take it from time to time. The file is created with O_EXCL: two processes
 * starting a new sandbox at once agree on one port (the second then finds it held). A kept port that
 * something else holds is an error, never a silent move (checked before the server opens the
 * sandbox's database: a second server must never touch it).
 */
export async function sandboxPort(dir: string): Promise<Result<number, AppError>> {
  const file = join(dir, PORT_FILE);
  const known = rememberedPort(dir);
  if (known !== null) return (await portIsFree(known)) ? ok(known) : err(portTaken(known, dir));
  for (let attempt = 0; attempt < 20; attempt++) {
    const chosen = FIRST_PORT + Math.floor(Math.random() * (LAST_PORT - FIRST_PORT));
    if (!(await portIsFree(chosen))) continue;
    try {
      writeFileSync(file, `${chosen}\n`, { flag: 'wx', mode: 0o600 });
      return ok(chosen);
    } catch (e) {
      const other = rememberedPort(dir);
      if (other !== null) return (await portIsFree(other)) ? ok(other) : err(portTaken(other, dir));
      return err(
        appError('SANDBOX-FAILED', `The sandbox's port could not be kept in ${dir}: ${(e as Error).message}`),
      );
    }
  }
  return err(
    appError(
      'SANDBOX-FAILED',
      `No free port was found for the sandbox between ${FIRST_PORT} and ${LAST_PORT}.`,
    ),
  );
}
const FIRST_PORT = 20_000;
const LAST_PORT = 32_000;

/** The port of the sandbox of `dir`, null before its first start. */
export function rememberedPort(dir: string): number | null {
  try {
    const port = Number(readFileSync(join(dir, PORT_FILE), 'utf8').trim());
    return Number.isInteger(port) && port > 0 && port < 65536 ? port : null;
  } catch {
    return null;
  }
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => probe.close(() => resolve(true)));
  });
}
