import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { createFileApiClient, type FileApiClient } from '../../src-main/core/service/file-api-client';
import { createRequestBudget } from '../../src-main/core/service/request-budget';
import { APP_MIGRATIONS } from '../../src-main/core/state/migrations';
import type { SyncOptions } from '../../src-main/core/sync/context';
import { createSyncEngine, type SyncEngine, type SyncEngineOptions } from '../../src-main/core/sync/engine';
import { startReferenceServer } from '../../src-main/reference-server/server';
import { type Db, openDatabase } from '../../src-main/shared-node/sqlite';
import type { RemoteFile } from '../../src-shared/api/file-hosting';

/** A real reference server on port 0 with its data in a temp dir, and its admin surface. */
export interface SyncTestServer {
  baseUrl: string;
  adminToken: string;
  dataDir: string;
  demoKey: string;
  admin<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: T }>;
  /** Every live file of a bucket, read through the public API with the demo key. */
  liveFiles(bucket: string): Promise<RemoteFile[]>;
  stop(): Promise<void>;
}

export async function startServer(
  opts: { ratePerMinute?: number; pricePerGbMonthPaise?: number } = {},
): Promise<SyncTestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sync-ref-'));
  const adminToken = `admin-${Math.random().toString(36).slice(2)}`;
  const server = await startReferenceServer({
    dataDir,
    adminToken,
    ratePerMinute: opts.ratePerMinute ?? 0,
    ...(opts.pricePerGbMonthPaise !== undefined ? { pricePerGbMonthPaise: opts.pricePerGbMonthPaise } : {}),
  });
  const demoKey = String(server.demo?.api_key ?? '');
  const admin: SyncTestServer['admin'] = async (method, path, body) => {
    const reply = await request(`${server.baseUrl}/__admin/v1${path}`, {
      method: method as 'GET',
      headers: {
        'x-admin-token': adminToken,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await reply.body.text();
    return { status: reply.statusCode, json: (text ? JSON.parse(text) : {}) as never };
  };
  const reader = testClient(server.baseUrl, demoKey);
  return {
    baseUrl: server.baseUrl,
    adminToken,
    dataDir,
    demoKey,
    admin,
    async liveFiles(bucket) {
      const out: RemoteFile[] = [];
      for await (const f of reader.listAllFiles({ bucket })) out.push(f);
      return out;
    },
    async stop() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A client with its own unlimited budget (the server's limit is off in these tests unless said). */
export function testClient(baseUrl: string, apiKey: string, timeoutMs = 10_000): FileApiClient {
  return createFileApiClient({ baseUrl, apiKey, budget: createRequestBudget({ perMinute: 0 }), timeoutMs });
}

/** A test client that records every request it sends ("POST /api/assets/v1/files", ...), retries included. */
export function countingClient(
  baseUrl: string,
  apiKey: string,
  budget = createRequestBudget({ perMinute: 0 }),
): { client: FileApiClient; sent: string[]; count(method: string, pathPart?: string): number } {
  const sent: string[] = [];
  const client = createFileApiClient({
    baseUrl,
    apiKey,
    budget,
    timeoutMs: 10_000,
    onRequest: (method, path) => sent.push(`${method} ${path}`),
  });
  return {
    client,
    sent,
    count: (method, pathPart = '') =>
      sent.filter((s) => s.startsWith(`${method} `) && s.includes(pathPart)).length,
  };
}

/** The shared waits (test/support/wait.ts), for the sync tests that import them from here. */
export { until } from '../support/wait';

export interface EngineHarness {
  engine: SyncEngine;
  db: Db;
  appDir: string;
  close(): Promise<void>;
  /** Stops the engine and closes its database, keeping the app dir (a restart opens it again). */
  release(): Promise<void>;
}

/** An engine over a fresh app database in a temp dir, with short waits for tests. */
export function makeEngine(
  client: FileApiClient,
  opts: Partial<SyncOptions> &
    Pick<SyncEngineOptions, 'service' | 'subscribeNative' | 'hasher' | 'clock' | 'log'> = {},
  appDir = mkdtempSync(join(tmpdir(), 'sync-app-')),
): EngineHarness {
  const db = openDatabase(join(appDir, 'app.sqlite'), APP_MIGRATIONS);
  const engine = createSyncEngine({
    db,
    client,
    stabilityMs: 150,
    reconcileDelayMs: 50,
    pausePollMs: 200,
    backoff: { baseMs: 30, capMs: 300, maxAttempts: 12 },
    watch: false,
    ...opts,
  });
  return {
    engine,
    db,
    appDir,
    async close() {
      await engine.stop();
      if (db.open) db.close();
      rmSync(appDir, { recursive: true, force: true });
    },
    async release() {
      await engine.stop();
      db.close();
    },
  };
}

export const md5Of = (path: string) => createHash('md5').update(readFileSync(path)).digest('hex');

export function tempDir(prefix = 'sync-src-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}
