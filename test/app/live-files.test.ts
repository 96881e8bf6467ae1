import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAppService } from '../../src-main/core';
import { syncedFiles } from '../../src-main/core/sync/state/synced-files';
import { memorySecrets } from '../support/secrets';
import { untilEvent } from '../support/wait';

describe('a live URL has one owner: the remote index for the account, the sync row for what this app sent', () => {
  it("synced files are in the index at once with their row's URL; a new version replaces the old there", async () => {
    const root = mkdtempSync(join(tmpdir(), 'live-files-'));
    const folder = join(root, 'folder');
    mkdirSync(folder);
    writeFileSync(join(folder, 'a.png'), 'first version of a');
    writeFileSync(join(folder, 'b.txt'), 'bee');
    const open = () =>
      createAppService({
        dataDir: join(root, 'data'),
        secrets: memorySecrets(),
        env: {},
        engine: { stabilityMs: 100 },
        log: () => {},
      });
    let app = await open();
    const indexed = async () => {
      const r = await app.call('files.index.query', {});
      if (!r.ok) throw new Error(r.error.message);
      return r.value.files;
    };
    const rows = () => syncedFiles(app.context.db).liveFiles();
    const agree = async () => {
      const index = await indexed();
      const live = rows();
      return (
        live.length === 2 &&
        index.length === 2 &&
        live.every((r) =>
          index.some((f) => f.id === r.remoteId && f.url === r.remoteUrl && f.name === r.name),
        )
      );
    };
    try {
      expect((await app.call('session.useSandbox', {})).ok).toBe(true);
      const added = await app.call('sync.folders.add', { path: folder, bucket: 'one', mode: 'upload-only' });
      expect(added.ok).toBe(true);
      await untilEvent(app, "both files in the index with their rows' URLs", agree);
      for (const f of await indexed()) {
        const served = Buffer.from(await (await fetch(f.url)).arrayBuffer());
        expect(served.equals(readFileSync(join(folder, f.name)))).toBe(true);
      }
      // The old listing copy is gone for good: nothing of kind 'files' in the offline cache.
      expect(
        app.context.db.prepare("SELECT COUNT(*) AS n FROM service_cache WHERE kind = 'files'").get(),
      ).toEqual({ n: 0 });

      // A new version goes live: the index holds it, and the replaced one leaves once deleted.
      const oldId = (await indexed()).find((f) => f.name === 'a.png')!.id;
      writeFileSync(join(folder, 'a.png'), 'second version of a');
      await untilEvent(app, 'the new version of a.png alone', async () => {
        const index = await indexed();
        return (await agree()) && !index.some((f) => f.id === oldId);
      });

      // After a restart the index and the rows still agree, without a listing.
      await app.close();
      app = await open();
      expect(await agree()).toBe(true);
    } finally {
      await app.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
