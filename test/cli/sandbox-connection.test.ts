import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppService, createAppService } from '../../src-main/core/app/app-service';
import { osKeychain } from '../../src-main/core/secrets/keychain';
import { runCli } from './run-cli';

/**
 * The app is connected through its sandbox; `files`, `account` and `usage`, with no key given, use
 * that same sandbox (its address, its demo client) instead of answering NOT-LOGGED-IN or starting a
 * second server on the same data folder. The real CLI, the real app core, the real keychain.
 */
describe('the CLI uses the sandbox the app runs', () => {
  const work = mkdtempSync(join(tmpdir(), 'cli-sandbox-'));
  const dataDir = join(work, 'data');
  let app: AppService;
  let sandboxUrl: string;

  beforeAll(async () => {
    // The CLI reads the keychain the app writes: the default service, under this data folder's account.
    app = await createAppService({ dataDir, env: {}, log: () => {} });
    const opened = await app.call('session.useSandbox', {});
    if (!opened.ok) throw new Error(opened.error.message);
    sandboxUrl = opened.value.baseUrl!;
  });
  afterAll(async () => {
    await app?.close();
    osKeychain().delete(`sandbox-api-key:${join(dataDir, 'sandbox')}`);
    rmSync(work, { recursive: true, force: true });
  });

  it("account, usage and files answer from the app's sandbox when no key or address is given", async () => {
    const account = await runCli(['account', '--json', '--data-dir', dataDir]);
    expect(account.code, account.stderr).toBe(0);
    expect(account.lines[0]).toMatchObject({ event: 'account', source: 'sandbox', base_url: sandboxUrl });
    const usage = await runCli(['usage', '--json', '--data-dir', dataDir]);
    expect(usage.code, usage.stderr).toBe(0);
    expect(usage.lines.at(-1)).toMatchObject({ event: 'usage.summary' });
    const files = await runCli(['files', '--json', '--data-dir', dataDir]);
    expect(files.code, files.stderr).toBe(0);
    // The app's sandbox still answers it after those runs: none of them stopped it.
    const again = await runCli(['account', '--json', '--data-dir', dataDir]);
    expect(again.lines[0]).toMatchObject({ base_url: sandboxUrl });
  });

  it('the sandbox address given without a key is the sandbox, not NOT-LOGGED-IN', async () => {
    for (const command of ['files', 'account', 'usage']) {
      const r = await runCli([command, '--json', '--data-dir', dataDir, '--base-url', sandboxUrl]);
      expect(r.code, `${command}: ${r.stdout} ${r.stderr}`).toBe(0);
      expect(r.stdout).not.toContain('NOT-LOGGED-IN');
    }
  });
});
