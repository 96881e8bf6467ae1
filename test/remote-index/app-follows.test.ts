import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAppService } from '../../src-main/core';
import { APP_MIGRATIONS } from '../../src-main/core/state/migrations';
import { openDatabase } from '../../src-main/shared-node/sqlite';
import { memorySecrets } from '../support/secrets';
import { untilEvent } from '../support/wait';

// The app service's engine uploads reach the remote index at once (the session's client feeds it).

describe('the app feeds the remote index', () => {
  it('synced files are in the index as soon as they are live', async () => {
    const root = mkdtempSync(join(tmpdir(), 'app-follows-'));
    const folder = join(root, 'folder');
    mkdirSync(folder);
    writeFileSync(join(folder, 'a.png'), 'a body');
    writeFileSync(join(folder, 'b.txt'), 'b body');
    const app = await createAppService({
      dataDir: join(root, 'data'),
      secrets: memorySecrets(),
      env: {},
      engine: { stabilityMs: 100 },
      log: () => {},
    });
    // A second connection to the app's database, as another reader would have.
    const db = openDatabase(join(root, 'data', 'app.sqlite'), APP_MIGRATIONS);
    const indexed = () =>
      db.prepare('SELECT name, bucket, url FROM remote_index_files ORDER BY name').all() as {
        name: string;
        bucket: string;
        url: string;
      }[];
    try {
      expect((await app.call('session.useSandbox', {})).ok).toBe(true);
      expect(
        (await app.call('sync.folders.add', { path: folder, bucket: 'one', mode: 'upload-only' })).ok,
      ).toBe(true);
      await untilEvent(app, 'both files indexed', () => indexed().length === 2);
      expect(indexed().map((f) => [f.name, f.bucket])).toEqual([
        ['a.png', 'one'],
        ['b.txt', 'one'],
      ]);
      expect(indexed()[0]!.url).toMatch(/\/storage\/1\/one\/[^/]+-a\.png$/);
    } finally {
      db.close();
      await app.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
