import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAppService } from '../../src-main/core';
import type { FileItem } from '../../src-shared/contract';
import { memorySecrets } from '../support/secrets';
import { untilEvent } from '../support/wait';

describe('a live file has one source: the service listing, or its sync row until a listing says it', () => {
  it('shows synced files from their rows, writes nothing invented, and lets a listing take over', async () => {
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
    const query = async () => {
      const r = await app.call('files.query', {});
      if (!r.ok) throw new Error(r.error.message);
      return r.value;
    };
    const row = async (name: string): Promise<FileItem | undefined> =>
      (await query()).rows.find((f) => f.name === name);
    try {
      expect((await app.call('session.useSandbox', {})).ok).toBe(true);
      const added = await app.call('sync.folders.add', { path: folder, bucket: 'one', mode: 'upload-only' });
      expect(added.ok).toBe(true);
      await untilEvent(app, 'both files listed from their rows', async () => (await query()).total === 2);

      const before = await query();
      expect(before.fetchedAt).toBe(null);
      for (const f of before.rows) {
        expect(f).toMatchObject({
          listed: false,
          bucket: 'one',
          mime: null,
          created_at: null,
          status: 'ACTIVE',
        });
        const served = Buffer.from(await (await fetch(f.url)).arrayBuffer());
        expect(served.equals(readFileSync(join(folder, f.name)))).toBe(true);
      }
      // Nothing made up went into the offline cache: it holds only what the service said.
      const source = app.context.cacheSource()!;
      expect(app.context.cache.getFiles(source, { page: 1, perPage: 100 })).toBe(null);

      // A listing: the same files, now as the service describes them, each once.
      expect((await app.call('files.refresh', {})).ok).toBe(true);
      const listed = await query();
      expect(listed.total).toBe(2);
      for (const f of listed.rows) {
        expect(f.listed).toBe(true);
        expect(f.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
      }
      expect((await row('a.png'))!.mime).toBe('image/png');
      const oldId = (await row('a.png'))!.id;

      // A new version goes live: shown from its row, the version it replaces no longer shown.
      writeFileSync(join(folder, 'a.png'), 'second version of a');
      await untilEvent(app, 'the new version of a.png', async () => {
        const a = await row('a.png');
        return a !== undefined && a.id !== oldId;
      });
      const replaced = await query();
      expect(replaced.total).toBe(2);
      expect((await row('a.png'))!.listed).toBe(false);
      expect((await row('b.txt'))!.listed).toBe(true);

      // After a restart the row still speaks for the new version until the next listing.
      const newId = (await row('a.png'))!.id;
      await app.close();
      app = await open();
      await untilEvent(app, 'a.png after the restart', async () =>
        (await query()).rows.some((f) => f.id === newId && !f.listed),
      );
    } finally {
      await app.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
