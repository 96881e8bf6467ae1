import { request } from 'undici';

/** The reference server's admin surface (docs/reference-server.md): faults, wallet, clock. */
export interface ServiceAdmin {
  faults(storageFailRate: number, connectionResetRate: number): Promise<void>;
  /** Adds (or, negative, takes at most the balance) paise; returns the wallet after it. */
  wallet(clientId: number, amountPaise: number): Promise<{ balance_paise: number; arrears_paise: number }>;
  advanceClock(seconds: number): Promise<void>;
}

export function serviceAdmin(baseUrl: string, token: string): ServiceAdmin {
  async function call<T>(method: 'POST' | 'PUT', path: string, body: unknown): Promise<T> {
    const res = await request(`${baseUrl}/__admin/v1${path}`, {
      method,
      headers: { 'x-admin-token': token, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.body.text();
    if (res.statusCode !== 200)
      throw new Error(`admin ${method} ${path} answered ${res.statusCode}: ${text}`);
    return JSON.parse(text) as T;
  }
  return {
    async faults(storage, reset) {
      await call('PUT', '/faults', { storage_fail_rate: storage, connection_reset_rate: reset });
    },
    wallet: (clientId, amount) => call('POST', `/clients/${clientId}/wallet`, { amount_paise: amount }),
    async advanceClock(seconds) {
      await call('POST', '/clock/advance', { seconds });
    },
  };
}
