import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAppService } from '../../src-main/core/app/app-service';
import type { SyncOverview } from '../../src-shared/contract';
import { memorySecrets } from '../support/secrets';
import { md5Of, testClient, until } from './helpers';

/** The app's secrets in memory: this test is about the sync rows, not the keychain (tested elsewhere). */

describe('Reset the sandbox', () => {
  it('the files synced to the old sandbox are uploaded to the new one, once each', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sync-reset-'));
    const dir = join(root, 'folder');
    const names = ['one.png', 'two.png', 'three.txt'];
    const app = await createAppService({
      dataDir: join(root, 'data'),
      secrets: memorySecrets(),
      env: {},
      engine: { stabilityMs: 100 },
      log: () => {},
    });
    const liveCount = async () => {
      const r = await app.call('sync.overview', {});
      return r.ok ? ((r.value as SyncOverview).folders[0]?.counts.live ?? 0) : -1;
    };
    const remoteNames = async () => {
      const live = app.context.session.live!;
      const out: string[] = [];
      for await (const f of testClient(live.connection.baseUrl, live.connection.apiKey).listAllFiles({
        bucket: 'reset',
      })) {
        expect(f.hash).toBe(md5Of(join(dir, f.name)));
        out.push(f.name);
      }
      return out.sort();
    };
    try {
      mkdirSync(dir);
      for (const n of names) writeFileSync(join(dir, n), randomBytes(1200));
      expect((await app.call('session.useSandbox', {})).ok).toBe(true);
      const added = await app.call('sync.folders.add', { path: dir, bucket: 'reset', mode: 'upload-only' });
      expect(added.ok).toBe(true);
      await until('the files live in the first sandbox', async () => (await liveCount()) === names.length);
      expect(await remoteNames()).toEqual([...names].sort());

      const reset = await app.call('settings.resetSandbox', {});
      expect(reset.ok).toBe(true);
      // The new sandbox starts empty; the rows that said LIVE are checked against it and uploaded.
      await until('the files in the new sandbox', async () => (await remoteNames()).length === names.length);
      await until('every row live again', async () => (await liveCount()) === names.length);
      expect(await remoteNames()).toEqual([...names].sort());
      const activity = await app.call('activity.list', { limit: 50 });
      expect(
        activity.ok && (activity.value as { message: string }[]).map((a) => a.message).join('\n'),
      ).toMatch(/synced with the local sandbox \(\w+, client 1\); now the local sandbox \(\w+, client 1\)/);
    } finally {
      await app.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
