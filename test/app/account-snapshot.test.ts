import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAppService } from '../../src-main/core/app/app-service';
import type { CachedAccount } from '../../src-shared/contract';
import { adminCall } from '../support/reference-server';
import { memorySecrets } from '../support/secrets';

const until = async (what: string, check: () => boolean | Promise<boolean>, ms = 30_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

/**
 * One account snapshot: the Account view's read of /me after a top-up is what the engine's pause
 * follows, so uploads resume with that read, not at the engine's next poll (here an hour away). The
 * banner's account and the overview's held state then agree. The real app core and sandbox.
 */
describe('a top-up seen by any read resumes uploads at once', () => {
  it('account.get after a top-up ends the pause; the overview and the snapshot agree', {
    timeout: 90_000,
  }, async () => {
    const root = mkdtempSync(join(tmpdir(), 'snapshot-app-'));
    const folder = join(root, 'photos');
    mkdirSync(folder);
    const app = await createAppService({
      dataDir: join(root, 'data'),
      secrets: memorySecrets(),
      env: {},
      log: () => {},
      engine: { stabilityMs: 100, pausePollMs: 3_600_000 },
    });
    const accounts: CachedAccount[] = [];
    app.subscribe((e) => {
      if (e.event === 'account.changed') accounts.push(e.payload);
    });
    try {
      expect((await app.call('session.useSandbox', {})).ok).toBe(true);
      const c = app.context.session.live!.connection;
      const admin = (path: string, body: unknown) => adminCall(c.baseUrl, c.adminToken!, 'POST', path, body);
      // 500 paise left: under the 5,000 floor.
      expect((await admin('/clients/1/wallet', { amount_paise: -9_500 })).status).toBe(200);
      for (let i = 0; i < 3; i++) writeFileSync(join(folder, `p-${i}.png`), randomBytes(1024));
      expect((await app.call('sync.folders.add', { path: folder, bucket: 'photos' })).ok).toBe(true);
      const overview = async () => {
        const o = await app.call('sync.overview', {});
        if (!o.ok) throw new Error(o.error.message);
        return o.value;
      };
      await until('uploads paused for money', async () => (await overview()).held?.code === 'LOW-BALANCE');

      expect((await admin('/clients/1/wallet', { amount_paise: 9_500 })).status).toBe(200);
      const read = await app.call('account.get', { refresh: true });
      expect(read.ok && read.value.value?.wallet.balance_paise).toBe(10_000);
      // The read itself resumed the engine: nothing else asked /me in between.
      const after = await overview();
      expect(after.held).toBeNull();
      expect(after.state).not.toBe('paused');
      expect(accounts.at(-1)?.value?.wallet.balance_paise).toBe(10_000);
      const stored = await app.call('account.get', { refresh: false });
      expect(stored.ok && stored.value.value?.wallet.balance_paise).toBe(10_000);
      await until('every file live', async () => (await overview()).folders[0]?.counts.live === 3);
    } finally {
      await app.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
