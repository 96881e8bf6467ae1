import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { FileApiClient } from '../../../src-main/core/service/file-api-client';
import type { FolderMode } from '../../../src-main/core/sync/types';
import { type EngineHarness, makeEngine, type SyncTestServer, testClient } from '../helpers';

/** One synced folder of a run: a directory, its own bucket, a mode. */
export interface Slot {
  dir: string;
  bucket: string;
  mode: FolderMode;
}

/**
 * What one run of the model-based test drives: a fresh client of the shared reference server (its
 * own key, wallet and buckets), a fresh app database, two folders (one mirror, one upload-only), and
 * the engine, which a restart replaces. Beside it, what the checks need: the folders' ids, the
 * bucket's files before each add (a mirror folder adopts, never deletes, what it did not send), and
 * how often each (bucket, name, content) was written on disk, the bound on how often it may be stored.
 */
export interface RunEnv {
  server: SyncTestServer;
  clientId: number;
  apiKey: string;
  client: FileApiClient;
  root: string;
  appDir: string;
  h: EngineHarness;
  slots: Slot[];
  folderIds: (number | null)[];
  preAdd: Set<number>[];
  writes: Map<string, number>;
  /** What was done, in order, for the report of a failing run. */
  trail: string[];
  restart(): Promise<void>;
  close(): Promise<void>;
}

export const writeKey = (bucket: string, name: string, md5: string) => `${bucket}\u0000${name}\u0000${md5}`;
export const md5Hex = (b: Uint8Array) => createHash('md5').update(b).digest('hex');

/** The engine of a run: watching, with the short waits of the sync tests. */
function engineFor(client: FileApiClient, appDir?: string): EngineHarness {
  return makeEngine(
    client,
    { watch: true, stabilityMs: 100, backoff: { baseMs: 20, capMs: 200, maxAttempts: 8 } },
    appDir,
  );
}

/** The wallet under the upload floor (uploads answer 402 LOW-BALANCE), or topped up again. */
export async function setWallet(env: RunEnv, low: boolean) {
  const path = `/clients/${env.clientId}/wallet`;
  const now = await env.server.admin<{ balance_paise: number }>('POST', path, { amount_paise: 1 });
  const target = low ? 100 : 1_000_000;
  const delta = target - now.json.balance_paise;
  if (delta !== 0) await env.server.admin('POST', path, { amount_paise: delta });
}

let runs = 0;

export async function openRun(server: SyncTestServer): Promise<RunEnv> {
  const n = ++runs;
  const made = await server.admin<{ client: { id: number }; api_key: string }>('POST', '/clients', {
    name: `model run ${n}`,
    wallet_paise: 1_000_000,
  });
  if (made.status !== 201) throw new Error(`could not make a client: ${JSON.stringify(made.json)}`);
  const root = mkdtempSync(join(tmpdir(), 'model-'));
  const slots: Slot[] = [
    { dir: join(root, 'mirror'), bucket: `run${n}-mirror`, mode: 'mirror' },
    { dir: join(root, 'kept'), bucket: `run${n}-kept`, mode: 'upload-only' },
  ];
  for (const s of slots) mkdirSync(join(s.dir, 'sub'), { recursive: true });
  const client = testClient(server.baseUrl, made.json.api_key);
  const appDir = join(root, 'app');
  mkdirSync(appDir);
  const env: RunEnv = {
    server,
    clientId: made.json.client.id,
    apiKey: made.json.api_key,
    client,
    root,
    appDir,
    h: engineFor(client, appDir),
    slots,
    folderIds: slots.map(() => null),
    preAdd: slots.map(() => new Set()),
    writes: new Map(),
    trail: [],
    async restart() {
      await env.h.release();
      env.h = engineFor(client, appDir);
      await env.h.engine.start();
    },
    async close() {
      await env.h.release();
      rmSync(root, { recursive: true, force: true });
    },
  };
  await env.h.engine.start();
  return env;
}

/**
 * Every file the service stored for the run's client, deleted ones included, counted by (bucket, name,
 * md5): what "uploaded twice" is measured against. Read from the reference server's own database (a
 * test fixture), since the API lists live files only.
 */
export function storedUploads(env: RunEnv): Map<string, number> {
  const db = new Database(join(env.server.dataDir, 'reference-server.sqlite'), {
    readonly: true,
    fileMustExist: true,
  });
  try {
    const rows = db
      .prepare(
        'SELECT bucket, name, hash, COUNT(*) AS n FROM files WHERE client_id = ? GROUP BY bucket, name, hash',
      )
      .all(env.clientId) as { bucket: string; name: string; hash: string; n: number }[];
    return new Map(rows.map((r) => [writeKey(r.bucket, r.name, r.hash), r.n]));
  } finally {
    db.close();
  }
}
