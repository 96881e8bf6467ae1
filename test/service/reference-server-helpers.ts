import { createClient, startTestServer as startServer } from '../support/reference-server';

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
  const server = await startServer({
    tempPrefix: 'assets-svc-ref-',
    ...options,
    ratePerMinute: options.ratePerMinute ?? 0,
  });
  const demoKey = String(server.server.demo?.api_key ?? '');
  if (!demoKey) {
    await server.stop();
    throw new Error('the reference server printed no demo key on a new data dir');
  }
  return {
    baseUrl: server.baseUrl,
    adminToken: server.adminToken,
    demoKey,
    admin: server.admin,
    async newClient(name, walletPaise) {
      // JSON leaves an undefined wallet out: the server's default applies.
      const c = await createClient(server.admin, { name, wallet_paise: walletPaise });
      return { id: c.client.id, apiKey: c.api_key, keyId: c.key_id };
    },
    stop: () => server.stop(),
  };
}
