import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppService } from '../../src-main/core/app/app-service';
import { runCli } from '../cli/run-cli';
import { createClient, startTestServer } from '../support/reference-server';
import { memorySecrets } from '../support/secrets';

// http://0.0.0.0:PORT reaches this machine's loopback listener on Linux, but by its name it is not a
// loopback address: it stands for "a host that is not loopback" without any packet leaving the machine.
let service: Awaited<ReturnType<typeof startTestServer>>;
let apiKey: string;
let port: string;
beforeAll(async () => {
  service = await startTestServer({ tempPrefix: 'plain-http-' });
  apiKey = (await createClient(service.admin, { name: 'Plain' })).api_key;
  port = new URL(service.baseUrl).port;
});
afterAll(() => service.stop());

describe('an API key is not sent over plain http to another machine unless the person says so', () => {
  it('session.connect refuses http:// to a host that is not loopback, sends nothing, and connects once confirmed', async () => {
    // A listener that counts every request: the refusal must come before any.
    let heard = 0;
    const listener = createServer((_q, r) => {
      heard++;
      r.writeHead(500).end();
    });
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    const listenerPort = (listener.address() as { port: number }).port;
    const root = mkdtempSync(join(tmpdir(), 'plain-http-app-'));
    const secrets = memorySecrets();
    const app = await createAppService({ dataDir: root, secrets, env: {}, log: () => {} });
    try {
      const refused = await app.call('session.connect', {
        baseUrl: `http://0.0.0.0:${listenerPort}`,
        apiKey,
      });
      expect(refused).toMatchObject({ ok: false, error: { code: 'PLAIN-HTTP' } });
      expect(!refused.ok && refused.error.message).toMatch(/http:\/\/0\.0\.0\.0.*unencrypted.*https:\/\//);
      expect(heard).toBe(0);
      expect(secrets.keys()).toEqual([]);

      const confirmed = await app.call('session.connect', {
        baseUrl: `http://0.0.0.0:${port}`,
        apiKey,
        allowPlainHttp: true,
      });
      expect(confirmed).toMatchObject({ ok: true, value: { kind: 'account', accountName: 'Plain' } });

      // This machine by name needs no confirmation: the key never leaves it.
      for (const host of ['127.0.0.1', 'localhost', '[::1]']) {
        const r = await app.call('session.connect', { baseUrl: `http://${host}:${port}`, apiKey });
        expect([host, r.ok || r.error.code]).not.toEqual([host, 'PLAIN-HTTP']);
      }
    } finally {
      await app.close();
      await new Promise((r) => listener.close(r));
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('login refuses it too, naming --allow-http, and logs in with it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'plain-http-cli-'));
    try {
      const refused = await runCli(['login', '--base-url', `http://0.0.0.0:${port}`, '--data-dir', dataDir]);
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toContain('PLAIN-HTTP');
      expect(refused.stderr).toContain('--allow-http');
      const allowed = await runCli(
        ['login', '--base-url', `http://0.0.0.0:${port}`, '--allow-http', '--data-dir', dataDir, '--json'],
        {},
        `${apiKey}\n`,
      );
      expect(allowed.code, allowed.stderr).toBe(0);
      expect(allowed.lines[0]).toMatchObject({ event: 'login', client: { name: 'Plain' } });
    } finally {
      await runCli(['logout', '--base-url', `http://0.0.0.0:${port}`, '--data-dir', dataDir]);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
