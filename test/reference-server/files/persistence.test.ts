import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { call, startServer } from './helpers';

const root = join(import.meta.dirname, '..', '..', '..');

describe('restart', () => {
  it('keeps clients, keys, files, wallets, snapshots and the clock; no demo the second time', async () => {
    const a = await startServer();
    const key = String(a.server.demo!.api_key);
    const up = (await a.upload(key, 'kept.txt', 'kept')).json.data;
    const other = await a.newClient({ name: 'Second', wallet_paise: 20_000 });
    const revoked = await a.admin('POST', `/clients/${other.client.id}/keys`);
    await a.admin('DELETE', `/keys/${revoked.json.key_id}`);
    await a.passMidnights(2);
    const clock = (await a.admin('GET', '/clock')).json.now;
    await a.stop(true);

    const b = await startServer({ dataDir: a.dir });
    try {
      expect(b.server.demo).toBeUndefined();
      expect(Date.parse((await b.admin('GET', '/clock')).json.now)).toBeGreaterThanOrEqual(Date.parse(clock));
      const got = await b.api(key, 'GET', `/files/${up.id}`);
      expect(got.status).toBe(200);
      expect(got.json.data).toMatchObject({ name: 'kept.txt', hash: up.hash });
      expect(await (await call(got.json.data.url)).json).toBe('kept');
      expect((await b.api(other.api_key, 'GET', '/me')).json.data.wallet.balance_paise).toBe(20_000);
      expect((await b.api(revoked.json.api_key, 'GET', '/me')).status).toBe(401);
      expect((await b.api(key, 'GET', '/usage')).json.meta.count).toBe(2);
    } finally {
      await b.stop();
    }
  });
});

describe('the CLI', () => {
  function start(dir: string) {
    const child = spawn(
      process.execPath,
      ['bin/assets-sync.mjs', 'reference-server', '--port', '0', '--data-dir', dir],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const ready = new Promise<Record<string, unknown>>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout! });
      lines.on('line', (line) => {
        try {
          const parsed = JSON.parse(line);
          if (parsed.event === 'ready') resolve(parsed);
        } catch {
          // other lines may come before the ready line
        }
      });
      child.once('exit', (code) => reject(new Error(`exited ${code} before the ready line`)));
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, ready, exited };
  }

  it('prints the ready line with the demo on a new folder, none on restart, and exits 0 on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'files-cli-'));
    try {
      const first = start(dir);
      const ready = await first.ready;
      expect(ready).toMatchObject({
        event: 'ready',
        base_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      });
      expect(ready.cdn_url).toBe(ready.base_url);
      expect(typeof ready.admin_token).toBe('string');
      const demo = ready.demo as Record<string, unknown>;
      expect(demo).toMatchObject({ client_id: 1, key_id: 1, api_key: expect.any(String) });
      const me = await call(`${ready.base_url}/api/assets/v1/me`, {
        headers: { authorization: `Bearer ${demo.api_key}` },
      });
      expect(me.json.data.client).toMatchObject({ name: 'Demo', default_bucket: 'default' });
      expect(me.json.data.wallet.balance_paise).toBe(10_000);
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);

      const second = start(dir);
      const again = await second.ready;
      expect(again.demo).toBeUndefined();
      const still = await call(`${again.base_url}/api/assets/v1/me`, {
        headers: { authorization: `Bearer ${demo.api_key}` },
      });
      expect(still.status).toBe(200);
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
