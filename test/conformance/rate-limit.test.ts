// The request limits: 120 per minute per address on the file-hosting API (429 RATE-LIMITED), 60 per minute
// per client on the entry API (429 {ok: false, error}), the admin surface never limited, and
// `--rate-limit-per-minute 0` / `--kb-rate-limit-per-minute 0` turning them off.
import { afterAll, describe, expect, it } from 'vitest';
import { disposeServer, type RunningServer, sortedKeys, startServer } from './harness';

let limited: RunningServer | undefined;
let unlimited: RunningServer | undefined;
afterAll(async () => {
  await disposeServer(limited);
  await disposeServer(unlimited);
});

async function statuses(n: number, send: () => Promise<{ status: number }>): Promise<number[]> {
  const out: number[] = [];
  // Sequential: the count is what matters, and two shared cores gain nothing from a burst.
  for (let i = 0; i < n; i++) out.push((await send()).status);
  return out;
}

describe('default limits', () => {
  it('file-hosting: 120 requests a minute per address, then 429 RATE-LIMITED on every endpoint', async () => {
    limited = await startServer();
    const client = await limited.admin('POST', '/clients', { name: 'Busy' });
    const key = client.json.api_key;
    const seen = await statuses(120, () => limited!.api('GET', '/me', key));
    expect(seen.filter((s) => s === 200)).toHaveLength(120);

    for (const path of ['/me', '/files', '/files/1', '/usage?days=1']) {
      const r = await limited.api('GET', path, key);
      expect({ path, status: r.status, code: r.json?.code }).toEqual({
        path,
        status: 429,
        code: 'RATE-LIMITED',
      });
      expect(sortedKeys(r.json)).toEqual(['code', 'data', 'errors']);
      expect(r.json.data).toBeNull();
      expect(r.json.errors.length).toBeGreaterThan(0);
    }
    // The admin surface is not rate limited.
    expect((await limited.admin('GET', '/clock')).status).toBe(200);
  });

  it('entries: 60 requests a minute per client (its bots share it), then 429 {ok: false, error}', async () => {
    const client = await limited!.admin('POST', '/clients', { name: 'Chatty' });
    const bot = (name: string, clientId: number) =>
      limited!.admin('POST', '/bots', { client_id: clientId, name, business_name: name });
    const one = (await bot('One', client.json.client.id)).json.token;
    const two = (await bot('Two', client.json.client.id)).json.token;
    const other = await limited!.admin('POST', '/clients', { name: 'Quiet' });
    const three = (await bot('Three', other.json.client.id)).json.token;

    const first = await statuses(40, () => limited!.kb('GET', '', one));
    const second = await statuses(20, () => limited!.kb('GET', '', two));
    expect([...first, ...second].every((s) => s === 200)).toBe(true);
    for (const token of [one, two]) {
      const r = await limited!.kb('GET', '', token);
      expect(r.status).toBe(429);
      expect(sortedKeys(r.json)).toEqual(['error', 'ok']);
      expect(r.json.ok).toBe(false);
      expect(typeof r.json.error).toBe('string');
    }
    // Another client's bot has its own budget.
    expect((await limited!.kb('GET', '', three)).status).toBe(200);
  });
});

describe('limits turned off', () => {
  it('--rate-limit-per-minute 0 and --kb-rate-limit-per-minute 0 never answer 429', async () => {
    unlimited = await startServer(['--rate-limit-per-minute', '0', '--kb-rate-limit-per-minute', '0']);
    const client = await unlimited.admin('POST', '/clients', { name: 'Bench' });
    const bot = await unlimited.admin('POST', '/bots', {
      client_id: client.json.client.id,
      name: 'B',
      business_name: 'B',
    });
    const files = await statuses(150, () => unlimited!.api('GET', '/me', client.json.api_key));
    expect(files.filter((s) => s !== 200)).toEqual([]);
    const entries = await statuses(80, () => unlimited!.kb('GET', '', bot.json.token));
    expect(entries.filter((s) => s !== 200)).toEqual([]);
  });
});
