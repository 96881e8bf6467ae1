import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAppService } from '../../src-main/core/app/app-service';
import type { SecretStore } from '../../src-main/core/secrets/keychain';

const secrets: SecretStore = { get: () => null, set: () => {}, delete: () => false };

/**
 * The sandbox keeps its port; when another program holds it the app says so and does not move
 * (the links would die), and a reset, which starts afresh with new links anyway, takes a new port.
 */
describe("the sandbox's port held by another program", () => {
  it('the app names the port; a reset gives the sandbox a new one', { timeout: 60_000 }, async () => {
    const root = mkdtempSync(join(tmpdir(), 'sandbox-port-app-'));
    const logs: string[] = [];
    const open = () => createAppService({ dataDir: root, secrets, env: {}, log: (l) => logs.push(l) });
    let app = await open();
    const first = await app.call('session.useSandbox', {});
    if (!first.ok) throw new Error(first.error.message);
    const port = Number(new URL(first.value.baseUrl!).port);
    await app.close();
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
    try {
      app = await open();
      expect(app.context.session.live).toBeNull();
      expect(logs.join('\n')).toContain(`Port ${port}`);
      const reset = await app.call('settings.resetSandbox', {});
      expect(reset.ok, JSON.stringify(reset)).toBe(true);
      const now = app.context.session.live?.connection.baseUrl;
      expect(now).toBeDefined();
      expect(Number(new URL(now!).port)).not.toBe(port);
    } finally {
      await app.close();
      await new Promise((resolve) => squatter.close(resolve));
      rmSync(root, { recursive: true, force: true });
    }
  });
});
