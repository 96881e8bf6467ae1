import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { startReferenceServer } from '../../src-main/reference-server/server';

/** A real reference server on port 0 in a temp dir, and its admin surface. */
export interface TestServer {
  baseUrl: string;
  adminToken: string;
  demoKey: string;
  admin<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: T }>;
  /** A new client with its own key (wallet 10,000 paise unless said). */
  newClient(name: string, walletPaise?: number): Promise<{ id: number; apiKey: string; keyId: number }>;
  stop(): Promise<void>;
}

export async function startTestServer(
  options: { ratePerMinute?: number; pricePerGbMonthPaise?: number } = {},
): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'assets-svc-ref-'));
  const adminToken = `admin-${Math.random().toString(36).slice(2)}`;
  const server = await startReferenceServer({
    dataDir: dir,
    adminToken,
    ratePerMinute: options.ratePerMinute ?? 0,
    ...(options.pricePerGbMonthPaise !== undefined
      ? { pricePerGbMonthPaise: options.pricePerGbMonthPaise }
      : {}),
  });
  const demoKey = String(server.demo?.api_key ?? '');
  if (!demoKey) throw new Error('the reference server printed no demo key on a new data dir');
  const admin: TestServer['admin'] = async (method, path, body) => {
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
  return {
    baseUrl: server.baseUrl,
    adminToken,
    demoKey,
    admin,
    async newClient(name, walletPaise) {
      const r = await admin<{ client: { id: number }; api_key: string; key_id: number }>('POST', '/clients', {
        name,
        ...(walletPaise !== undefined ? { wallet_paise: walletPaise } : {}),
      });
      if (r.status !== 201)
        throw new Error(`admin POST /clients answered ${r.status}: ${JSON.stringify(r.json)}`);
      return { id: r.json.client.id, apiKey: r.json.api_key, keyId: r.json.key_id };
    },
    async stop() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
