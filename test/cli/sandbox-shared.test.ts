import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppService, createAppService } from '../../src-main/core/app/app-service';
import type { SecretStore } from '../../src-main/core/secrets/keychain';
import { runCli } from './run-cli';

/** A machine with no Secret Service: every keychain call fails, as @napi-rs/keyring's do there. */
const noKeychain: SecretStore = {
  get: () => {
    throw new Error('no Secret Service');
  },
  set: () => {
    throw new Error('no Secret Service');
  },
  delete: () => {
    throw new Error('no Secret Service');
  },
};
/** The CLI's own keychain fails too: no D-Bus session to reach one. */
const NO_DBUS = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' };

/**
 * One sandbox per data folder, on one port for good: the app runs it on a machine without a
 * keychain, and `account` and `files --csv` use that sandbox (they started a second one on another
 * port before, whose URLs died with the command, and rewrote the port file). With the app closed,
 * the CLI starts it itself, says so, on the same port; the app's next start is on that port too, and
 * the URLs exported earlier answer again. The real CLI, the real app core, a real reference server.
 */
describe('the CLI and the app share one sandbox per data folder', () => {
  const work = mkdtempSync(join(tmpdir(), 'cli-shared-'));
  const dataDir = join(work, 'data');
  let app: AppService | null = null;
  let sandboxUrl: string;

  const openApp = async () => {
    app = await createAppService({ dataDir, env: {}, secrets: noKeychain, log: () => {} });
    const opened = await app.call('session.useSandbox', {});
    if (!opened.ok) throw new Error(opened.error.message);
    return opened.value.baseUrl!;
  };

  beforeAll(async () => {
    sandboxUrl = await openApp();
    const file = join(work, 'hello.txt');
    writeFileSync(file, 'hello from the app');
    const bytes = readFileSync(file);
    const up = await app!.context.session.live!.client.uploadFile({
      path: file,
      size: bytes.length,
      name: 'hello.txt',
      md5: createHash('md5').update(bytes).digest('hex'),
    });
    if (!up.ok) throw new Error(up.error.message);
  });
  afterAll(async () => {
    await app?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("account and files --csv use the app's sandbox, with no keychain anywhere", async () => {
    const portFile = readFileSync(join(dataDir, 'sandbox', 'port'), 'utf8');
    const account = await runCli(['account', '--json', '--data-dir', dataDir], NO_DBUS);
    expect(account.code, account.stderr).toBe(0);
    expect(account.lines[0]).toMatchObject({ event: 'account', source: 'sandbox', base_url: sandboxUrl });
    expect(account.stderr).toContain(`Using this data folder's sandbox at ${sandboxUrl}`);

    const csv = await runCli(['files', '--csv', '--data-dir', dataDir], NO_DBUS);
    expect(csv.code, csv.stderr).toBe(0);
    const url = csv.stdout.split('\r\n')[1]!.split(',')[3]!;
    expect(url.startsWith(`${sandboxUrl}/`), url).toBe(true);
    // The command has ended; its URL answers, and the port file still names the app's port.
    expect((await fetch(url)).status).toBe(200);
    expect(readFileSync(join(dataDir, 'sandbox', 'port'), 'utf8')).toBe(portFile);
  });

  it('with the app closed the CLI starts the sandbox on the same port and says so; the app comes back there', async () => {
    const csv = await runCli(['files', '--csv', '--data-dir', dataDir], NO_DBUS);
    const url = csv.stdout.split('\r\n')[1]!.split(',')[3]!;
    await app!.close();
    app = null;

    const alone = await runCli(['account', '--json', '--data-dir', dataDir], NO_DBUS);
    expect(alone.code, alone.stderr).toBe(0);
    expect(alone.lines[0]).toMatchObject({ base_url: sandboxUrl });
    expect(alone.stderr).toContain(`Started this data folder's sandbox at ${sandboxUrl}`);
    // Its sandbox ended with it: nothing answers until one runs again.
    await expect(fetch(url)).rejects.toThrow();

    expect(await openApp()).toBe(sandboxUrl);
    expect((await fetch(url)).status).toBe(200);
  });
});
