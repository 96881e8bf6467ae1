import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createFileApiClient,
  type FileApiClient,
  type RemoteEvent,
} from '../../src-main/core/service/file-api-client';
import {
  createRequestBudget,
  type Lane,
  type RequestBudget,
} from '../../src-main/core/service/request-budget';
import { APP_MIGRATIONS } from '../../src-main/core/state/migrations';
import { type Db, openDatabase } from '../../src-main/shared-node/sqlite';
import type { RemoteFile } from '../../src-shared/api/file-hosting';
import { startTestServer } from '../support/reference-server';

export type Server = Awaited<ReturnType<typeof startTestServer>>;

/** A reference server (limit off unless said) with one client whose key the tests use. */
export async function serverWithClient(opts: { ratePerMinute?: number } = {}) {
  const srv = await startTestServer({ tempPrefix: 'remote-index-', ratePerMinute: opts.ratePerMinute ?? 0 });
  const r = await srv.admin('POST', '/clients', { name: 'Index Client', wallet_paise: 1_000_000 });
  if (r.status !== 201) throw new Error(`client: ${JSON.stringify(r.json)}`);
  const clientId = r.json.client.id as number;
  const apiKey = r.json.api_key as string;
  return {
    srv,
    clientId,
    apiKey,
    /** Files made at once through the admin surface (one second apart, newest now). */
    async seed(count: number, body: Record<string, unknown> = {}) {
      const s = await srv.admin('POST', '/files/seed', { client_id: clientId, count, ...body });
      if (s.status !== 201) throw new Error(`seed: ${s.status} ${JSON.stringify(s.json)}`);
      return s.json as { first_id: number; last_id: number; md5: string };
    },
  };
}

export interface Counted {
  client: FileApiClient;
  /** "GET /api/assets/v1/files lane" for each request sent. */
  sent: { method: string; path: string; lane: Lane }[];
  listings(): number;
  reset(): void;
}

/** A client that records every request it sends, on its own budget (unlimited unless given). */
export function countedClient(
  baseUrl: string,
  apiKey: string,
  o: { budget?: RequestBudget; onRemote?: (e: RemoteEvent) => void } = {},
): Counted {
  const sent: Counted['sent'] = [];
  const client = createFileApiClient({
    baseUrl,
    apiKey,
    budget: o.budget ?? createRequestBudget({ perMinute: 0 }),
    timeoutMs: 20_000,
    onRequest: (method, path, lane) => sent.push({ method, path, lane }),
    ...(o.onRemote ? { onRemote: o.onRemote } : {}),
  });
  return {
    client,
    sent,
    listings: () => sent.filter((s) => s.method === 'GET' && s.path.endsWith('/files')).length,
    reset: () => {
      sent.length = 0;
    },
  };
}

/** Every live file of the account as the service lists it (ids, newest first). */
export async function liveIds(client: FileApiClient): Promise<number[]> {
  const out: number[] = [];
  for await (const f of client.listAllFiles()) out.push(f.id);
  return out;
}

export async function listAll(client: FileApiClient): Promise<RemoteFile[]> {
  const out: RemoteFile[] = [];
  for await (const f of client.listAllFiles()) out.push(f);
  return out;
}

/** A new app database in a temp folder, every module's migrations applied. */
export function tempAppDb(): { db: Db; dir: string; reopen(): Db; close(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'remote-index-app-'));
  let db = openDatabase(join(dir, 'app.sqlite'), APP_MIGRATIONS);
  return {
    get db() {
      return db;
    },
    dir,
    reopen() {
      db.close();
      db = openDatabase(join(dir, 'app.sqlite'), APP_MIGRATIONS);
      return db;
    },
    close() {
      if (db.open) db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
