import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAppService } from '../../src-main/core/app/app-service';
import { adminCall } from '../support/reference-server';
import { memorySecrets } from '../support/secrets';
import { untilEvent } from '../support/wait';

const MiB = 2 ** 20;

/**
 * The folder card's "Share of the daily rent" and Account's split come from one command: from the same
 * /me as the account's rent, in paise that add up to it (issue 31: 196 MiB of 198 MiB said ₹0.02 of ₹0.03).
 */
describe("a folder's share of the daily rent", () => {
  it('adds up with the other files to the rent the account is charged', { timeout: 90_000 }, async () => {
    const root = mkdtempSync(join(tmpdir(), 'rent-shares-'));
    const folder = join(root, 'media');
    mkdirSync(folder);
    // 40 MiB here and 30 MiB elsewhere in the account: the rent is 1 paisa (70 MiB at ₹5 a GiB-month);
    // the folder's exact part is 0.57 of it, the other files' 0.43: the paisa is the folder's.
    writeFileSync(join(folder, 'film.pdf'), Buffer.alloc(40 * MiB, 'x'));
    const app = await createAppService({
      dataDir: join(root, 'data'),
      secrets: memorySecrets(),
      env: {},
      engine: { stabilityMs: 100 },
      log: () => {},
    });
    try {
      expect((await app.call('session.useSandbox', {})).ok).toBe(true);
      const c = app.context.session.live!.connection;
      const seeded = await adminCall(c.baseUrl, c.adminToken!, 'POST', '/files/seed', {
        client_id: 1,
        count: 30,
        bytes: MiB,
        prefix: 'elsewhere-',
      });
      expect(seeded.status).toBe(201);
      const added = await app.call('sync.folders.add', {
        path: folder,
        bucket: 'media',
        mode: 'upload-only',
      });
      expect(added.ok).toBe(true);
      await untilEvent(app, 'the film live', async () => {
        const o = await app.call('sync.overview', {});
        return o.ok && o.value.folders[0]?.counts.live === 1;
      });
      const me = await app.call('account.get', { refresh: true });
      expect(me.ok && me.value.value?.usage.daily_rent_paise).toBe(1);

      const r = await app.call('sync.folderRent', {});
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      expect(r.value.dailyRentPaise).toBe(1);
      expect(r.value.folders).toEqual([
        { folderId: added.ok ? added.value.id : -1, path: folder, liveBytes: 40 * MiB, dailySharePaise: 1 },
      ]);
      expect(r.value.other).toEqual({ bytes: 30 * MiB, dailySharePaise: 0 });
      expect(r.value.accountBytes).toBe(70 * MiB);
      expect(r.value.rounded).toBe(true);
    } finally {
      await app.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
