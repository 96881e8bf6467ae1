import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src-main/core/service/sandbox';

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

  it('takes another port when its own is held by something else', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-port-'));
    dirs.push(dataDir);
    const first = await started(dataDir);
    const port = Number(new URL(first.baseUrl).port);
    await first.close();
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
    try {
      const second = await started(dataDir);
      expect(Number(new URL(second.baseUrl).port)).not.toBe(port);
      const me = await fetch(`${second.baseUrl}/api/assets/v1/me`, {
        headers: { authorization: `Bearer ${second.apiKey}` },
      });
      expect(me.status).toBe(200);
      await second.close();
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });
});
