import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppService } from '../../src-main/core/app/app-service';
import { APP_MIGRATIONS } from '../../src-main/core/state/migrations';
import { trayView } from '../../src-main/electron/tray-state';
import { openDatabase } from '../../src-main/shared-node/sqlite';
import { runCli } from '../cli/run-cli';
import { memorySecrets } from '../support/secrets';
import { type SyncTestServer, startServer, until } from '../sync/helpers';

let server: SyncTestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

// Issue 18 / 22: "pending", "failed" and "in sync" have one definition (state/transitions.ts). A file
// FAILED and waiting for its automatic retry is pending everywhere: the engine says the folder is not
// in sync, the app's overview "syncing", the tray "1 file to go", `assets-sync status` "1 pending".
describe('a folder holding a file that failed and waits for its automatic retry', () => {
  it('is counted the same by the engine, the app overview, the tray and the CLI status', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pending-'));
    const folder = join(root, 'photos');
    mkdirSync(folder);
    writeFileSync(join(folder, 'shop.png'), randomBytes(1024));
    // Every upload refused with STORAGE-FAILED (retry later); the retry is an hour away.
    await server.admin('PUT', '/faults', { storage_fail_rate: 1 });
    const app = await createAppService({
      dataDir: join(root, 'data'),
      secrets: memorySecrets(),
      env: { ASSETS_API_KEY: server.demoKey },
      baseUrl: server.baseUrl,
      log: () => {},
      engine: { stabilityMs: 50, backoff: { baseMs: 3_600_000, capMs: 3_600_000, maxAttempts: 10 } },
    });
    try {
      const added = await app.call('sync.folders.add', { path: folder, bucket: 'pending' });
      if (!added.ok) throw new Error(added.error.message);
      const waiting = () => {
        const db = openDatabase(join(root, 'data', 'app.sqlite'), APP_MIGRATIONS);
        try {
          return db
            .prepare(
              "SELECT COUNT(*) AS n FROM sync_files WHERE state = 'FAILED' AND next_retry_at IS NOT NULL",
            )
            .get() as { n: number };
        } finally {
          db.close();
        }
      };
      await until('the file FAILED with its retry', () => waiting().n === 1);

      const o = await app.call('sync.overview', {});
      if (!o.ok) throw new Error(o.error.message);
      const [view] = o.value.folders;
      expect(view?.counts).toEqual({
        live: 0,
        pending: 1,
        failed: 0,
        skipped: 0,
        removedByYou: 0,
        retrying: 1,
        active: 0,
      });
      expect(o.value.state).toBe('syncing');
      const tray = trayView(o.value);
      expect(tray.state).toBe('syncing');
      // The status model's word for files that only wait for their retry (issue 31): not "Syncing".
      expect(tray.tooltip).toBe('Assets Sync: Waiting to retry — 1 file waiting to retry');

      const cli = await runCli(['status', '--json', '--data-dir', join(root, 'data')]);
      expect(cli.code).toBe(0);
      const line = cli.lines.find((l) => l.event === 'folder');
      expect(line?.pending).toBe(1);
      expect(line?.tally).toEqual(view?.counts);
    } finally {
      await app.close();
      await server.admin('PUT', '/faults', { storage_fail_rate: 0 });
      rmSync(root, { recursive: true, force: true });
    }
  });
});
