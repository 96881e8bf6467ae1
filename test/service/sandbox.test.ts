import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSandbox } from '../../src-main/core/service/sandbox';
import { shareSandbox } from '../../src-main/core/service/shared-sandbox';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function started(dataDir: string) {
  const r = await startSandbox({ dataDir });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe('the embedded sandbox', () => {
  it('comes back on the same port, so the CDN links it gave out keep working', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-port-'));
    dirs.push(dataDir);
    const first = await started(dataDir);
    const key1 = first.apiKey;
    await first.close();
    const second = await started(dataDir);
    expect(second.baseUrl).toBe(first.baseUrl);
    // A fresh key each start; the previous one still belongs to the same demo client.
    expect(second.apiKey).not.toBe(key1);
    const me = await fetch(`${second.baseUrl}/api/assets/v1/me`, {
      headers: { authorization: `Bearer ${second.apiKey}` },
    });
    expect(me.status).toBe(200);
    await second.close();
  });

  it('never moves to another port: held by something else, it says so and starts nothing', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-port-'));
    dirs.push(dataDir);
    const first = await started(dataDir);
    const port = Number(new URL(first.baseUrl).port);
    await first.close();
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
    try {
      const second = await startSandbox({ dataDir });
      expect(second.ok).toBe(false);
      if (!second.ok) {
        expect(second.error.code).toBe('SANDBOX-PORT-TAKEN');
        expect(second.error.message).toContain(`Port ${port}`);
      }
      expect(readFileSync(join(dataDir, 'sandbox', 'port'), 'utf8').trim()).toBe(String(port));
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
    // Freed, it is the sandbox's again.
    const third = await started(dataDir);
    expect(third.baseUrl).toBe(first.baseUrl);
    await third.close();
  });

  it('a second process on the data folder uses the running sandbox and takes it over when it stops', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-share-'));
    dirs.push(dataDir);
    const secrets = { get: () => null, set: () => {}, delete: () => false };
    const a = await shareSandbox({ dataDir, secrets, cacheSource: 'sandbox' });
    const b = await shareSandbox({ dataDir, secrets, cacheSource: 'sandbox' });
    if (!a.ok || !b.ok) throw new Error('not shared');
    expect(a.value.startedHere).toBe(true);
    expect(b.value.startedHere).toBe(false);
    expect(b.value.baseUrl).toBe(a.value.baseUrl);
    expect(b.value.adminToken).toBe(a.value.adminToken);
    await a.value.close();
    // B holds a visit to A's door: its end makes B start the sandbox on the same port, same key.
    await vi.waitFor(() => expect(b.value.startedHere).toBe(true), { timeout: 10_000 });
    const me = await fetch(`${b.value.baseUrl}/api/assets/v1/me`, {
      headers: { authorization: `Bearer ${b.value.apiKey}` },
    });
    expect(me.status).toBe(200);
    await b.value.close();
  });
});
