import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { botIds } from '../../src-main/core/kb/bots';
import { createKbService, type KbService } from '../../src-main/core/kb/kb-service';
import { CORE_KB_MIGRATIONS } from '../../src-main/core/kb/migrations';
import { LEADS_MIGRATIONS } from '../../src-main/core/leads/migrations';
import { createSigningKeys } from '../../src-main/core/leads/signing-keys';
import type { SecretStore } from '../../src-main/core/secrets/keychain';
import type { Clock } from '../../src-main/core/service/clock';
import { createRequestBudget } from '../../src-main/core/service/request-budget';
import type { ServerOptionsInput } from '../../src-main/reference-server/options';
import { type RunningServer, startReferenceServer } from '../../src-main/reference-server/server';
import { type Db, openDatabase } from '../../src-main/shared-node/sqlite';
import type { KbSnapshot } from '../../src-shared/contract/kb';
import { type Admin, adminCall, createBot, createClient, entryCall } from '../support/reference-server';

export const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));
export const removeDir = (dir: string) => rmSync(dir, { recursive: true, force: true });

import { testKeychain } from '../support/secrets';

export { testKeychain };

/**
 * A KB test's world: a temp folder, a keychain service of its own and a reference server in it, made
 * before the describe's tests and removed after them. vitest runs afterAll hooks last-registered
 * first, so a describe's own (closing its apps) run before these. `server` may be replaced (a restart).
 */
export function kbServerFixture(prefix: string) {
  const w = { dir: tempDir(prefix), keychain: testKeychain(), server: undefined as unknown as RunningServer };
  beforeAll(async () => {
    w.server = await startServer(join(w.dir, 'server'));
  });
  afterAll(async () => {
    await w.server?.close();
    w.keychain.cleanup();
    removeDir(w.dir);
  });
  return w;
}
export type KbWorld = ReturnType<typeof kbServerFixture>;

/** A bot on the world's server, and the app's KB side (its own SQLite file) holding it as `name`. */
export async function appWithBot(
  w: KbWorld,
  o: { name?: string; file?: string } & Parameters<typeof openApp>[2] = {},
) {
  const { token } = await makeBot(w.server);
  const { name: _, file, ...opts } = o;
  const app = openApp(join(w.dir, file ?? 'app.sqlite'), w.keychain, opts);
  const botId = must(app.kb.addBot({ name: o.name ?? 'Bot', baseUrl: w.server.baseUrl, token })).id;
  return { app, token, botId };
}

export async function startServer(dataDir: string, port = 0, extra: ServerOptionsInput = {}) {
  // A known admin token: test/leads hands it to the app's sandbox set-up as the user would.
  return startReferenceServer({ dataDir, port, adminToken: 'test-admin-token', ...extra });
}

export function admin(server: RunningServer, method: string, path: string, body?: unknown) {
  return adminCall(server.baseUrl, server.adminToken, method, path, body);
}

/** A bot on the server, made through the admin surface as a user would in the bot's editor. */
export async function makeBot(server: RunningServer, webhookUrl?: string) {
  const call: Admin = (method, path, body) => admin(server, method, path, body);
  const client = await createClient(call, { name: 'KB test client' });
  return createBot(call, client.client.id, {
    name: 'Test bot',
    business_name: 'Test business',
    ...(webhookUrl ? { webhook_url: webhookUrl } : {}),
  });
}

/** Calls the entry API directly, as another system editing "behind the app's back". */
export const api = entryCall;

export interface TestApp {
  db: Db;
  kb: KbService;
  snapshots: KbSnapshot[];
  close(): Promise<void>;
}

/**
 * The app's KB side over a real SQLite file; the budget is generous so tests do not wait on it.
 * Deletes go out at once unless a test asks for an undo window (`undoMs`).
 */
export function openApp(
  dbFile: string,
  secrets: SecretStore,
  o: {
    undoMs?: number;
    /** The wall and monotonic clocks the KB side reads (a test steps the wall one). */
    clock?: Pick<Clock, 'now' | 'monotonic'>;
    /** Told of every 429 the entry API answers, after the budget. */
    onRateLimited?: () => void;
  } = {},
): TestApp {
  const db = openDatabase(dbFile, [...CORE_KB_MIGRATIONS, ...LEADS_MIGRATIONS]);
  const signing = createSigningKeys(secrets, () => botIds(db));
  const snapshots: KbSnapshot[] = [];
  const budget = createRequestBudget({ perMinute: 600 });
  const kb = createKbService({
    db,
    secrets,
    signing,
    onSnapshot: (s) => snapshots.push(s),
    budgetFor: () =>
      o.onRateLimited
        ? {
            take: (...a: Parameters<typeof budget.take>) => budget.take(...a),
            rateLimited: (...a: Parameters<typeof budget.rateLimited>) => {
              budget.rateLimited(...a);
              o.onRateLimited?.();
            },
          }
        : budget,
    timeoutMs: 2_000,
    undoMs: o.undoMs ?? 0,
    ...(o.clock ? { clock: o.clock } : {}),
  });
  return {
    db,
    kb,
    snapshots,
    async close() {
      await kb.stop();
      db.close();
    },
  };
}

export const byTitle = (app: TestApp, botId: number, title: string) => {
  const s = app.kb.snapshot(botId);
  if (!s.ok) throw new Error(s.error.message);
  return s.value.entries.find((e) => e.title === title);
};

export function must<T>(
  r: { ok: true; value: T } | { ok: false; error: { code: string; message: string } },
): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}
