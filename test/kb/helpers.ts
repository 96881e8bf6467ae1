import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { botIds } from '../../src-main/core/kb/bots';
import { createKbService, type KbService } from '../../src-main/core/kb/kb-service';
import { KB_MIGRATIONS } from '../../src-main/core/kb/migrations';
import { LEADS_MIGRATIONS } from '../../src-main/core/leads/migrations';
import { createSigningKeys } from '../../src-main/core/leads/signing-keys';
import { osKeychain, type SecretStore } from '../../src-main/core/secrets/keychain';
import { createRequestBudget } from '../../src-main/core/service/request-budget';
import { type RunningServer, startReferenceServer } from '../../src-main/reference-server/server';
import { type Db, openDatabase } from '../../src-main/shared-node/sqlite';
import type { KbSnapshot } from '../../src-shared/contract/kb';

export const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));
export const removeDir = (dir: string) => rmSync(dir, { recursive: true, force: true });

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

export async function startServer(dataDir: string, port = 0, extra: Record<string, unknown> = {}) {
  return startReferenceServer({ dataDir, port, adminToken: 'test-admin-token', ...extra });
}

export async function admin(server: { baseUrl: string }, method: string, path: string, body?: unknown) {
  const res = await request(`${server.baseUrl}/__admin/v1${path}`, {
    method: method as 'GET',
    headers: { 'x-admin-token': 'test-admin-token', 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: replies are checked by the tests' own assertions
  return { status: res.statusCode, json: (await res.body.json()) as any };
}

/** A bot on the server, made through the admin surface as a user would in the bot's editor. */
export async function makeBot(server: RunningServer, webhookUrl?: string) {
  const client = await admin(server, 'POST', '/clients', { name: 'KB test client' });
  if (client.status !== 201) throw new Error(`POST /clients answered ${client.status}`);
  const r = await admin(server, 'POST', '/bots', {
    client_id: client.json.client.id,
    name: 'Test bot',
    business_name: 'Test business',
    ...(webhookUrl ? { webhook_url: webhookUrl } : {}),
  });
  if (r.status !== 201) throw new Error(`POST /bots answered ${r.status}`);
  return r.json as { bot: { id: number }; token: string; signing_secret: string };
}

/** Calls the entry API directly, as another system editing "behind the app's back". */
export async function api(baseUrl: string, token: string, method: string, path = '', body?: unknown) {
  const res = await request(`${baseUrl}/api/mebot/kb/entries${path}`, {
    method: method as 'GET',
    headers: { 'x-bot-token': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: replies are checked by the tests' own assertions
  return { status: res.statusCode, json: (await res.body.json()) as any };
}

export interface TestApp {
  db: Db;
  kb: KbService;
  snapshots: KbSnapshot[];
  close(): Promise<void>;
}

/** The app's KB side over a real SQLite file; the budget is generous so tests do not wait on it. */
export function openApp(dbFile: string, secrets: SecretStore): TestApp {
  const db = openDatabase(dbFile, [...KB_MIGRATIONS, ...LEADS_MIGRATIONS]);
  const signing = createSigningKeys(secrets, () => botIds(db));
  const snapshots: KbSnapshot[] = [];
  const budget = createRequestBudget({ perMinute: 600, burst: 20 });
  const kb = createKbService({
    db,
    secrets,
    signing,
    onSnapshot: (s) => snapshots.push(s),
    budgetFor: () => budget,
    timeoutMs: 2_000,
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
