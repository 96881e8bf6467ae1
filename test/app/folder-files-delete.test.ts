import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppService, createAppService } from '../../src-main/core/app/app-service';
import { syncedFiles } from '../../src-main/core/sync/state/synced-files';
import { memorySecrets } from '../support/secrets';
import { untilEvent } from '../support/wait';

/**
 * Five files of a watched folder deleted in the Files view (issue 18): before, the folder went on
 * saying "Live 5 · In sync" over links that answered 404, and the dialog never said they belonged to a
 * folder. Now the delete asks, and each answer is true afterwards: "stop syncing" leaves the local
 * files and lists them as removed by you, never sending them (not even edited); "send again" uploads
 * them under new links at once, and Activity says why. The real app core and its sandbox.
 */
describe('a delete in the Files view knows the watched folder its files came from', () => {
  const root = mkdtempSync(join(tmpdir(), 'folder-delete-'));
  const folder = join(root, 'photos');
  let app: AppService;
  const names = ['a.png', 'b.png', 'c.png', 'd.png', 'e.png'];

  const overviewFolder = async () => {
    const o = await app.call('sync.overview', {});
    if (!o.ok) throw new Error(o.error.message);
    return o.value.folders[0]!;
  };
  const indexed = async () => {
    const r = await app.call('files.index.query', {});
    if (!r.ok) throw new Error(r.error.message);
    return r.value.files;
  };
  const idOf = async (name: string) => (await indexed()).find((f) => f.name === name)!;
  const jobDone = () =>
    untilEvent(app, 'the delete job finished', async () => {
      const j = await app.call('files.bulkDelete.progress', {});
      return j.ok && j.value?.state === 'finished';
    });

  beforeAll(async () => {
    mkdirSync(folder);
    for (const n of names) writeFileSync(join(folder, n), `bytes of ${n}`);
    app = await createAppService({
      dataDir: join(root, 'data'),
      secrets: memorySecrets(),
      env: {},
      engine: { stabilityMs: 100 },
      log: () => {},
    });
    expect((await app.call('session.useSandbox', {})).ok).toBe(true);
    expect((await app.call('sync.folders.add', { path: folder, bucket: 'photos' })).ok).toBe(true);
    await untilEvent(app, 'five files live and indexed', async () => {
      return (await overviewFolder()).counts.live === 5 && (await indexed()).length === 5;
    });
  }, 90_000);
  afterAll(async () => {
    await app?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('names the folder and refuses to guess what it should do next', async () => {
    const ids = [(await idOf('a.png')).id, (await idOf('b.png')).id];
    const where = await app.call('files.selection.folders', { ids });
    expect(where.ok && where.value.folders).toEqual([
      { folderId: 1, path: folder, mode: 'upload-only', count: 2, names: ['a.png', 'b.png'] },
    ]);
    const blind = await app.call('files.bulkDelete.start', { ids });
    expect(blind.ok).toBe(false);
    if (!blind.ok) {
      expect(blind.error.code).toBe('FOLDER-FILES-CHOICE');
      expect(blind.error.message).toContain(folder);
    }
    // Nothing was deleted.
    expect(await indexed()).toHaveLength(5);
  });

  it('"stop syncing them": deleted, local files kept, listed as removed by you, never sent again', async () => {
    const a = await idOf('a.png');
    const b = await idOf('b.png');
    const started = await app.call('files.bulkDelete.start', {
      ids: [a.id, b.id],
      folderFiles: 'stop-syncing',
    });
    expect(started.ok, JSON.stringify(started)).toBe(true);
    await jobDone();
    const f = await overviewFolder();
    expect(f.counts).toMatchObject({ live: 3, removedByYou: 2, skipped: 0, pending: 0 });
    expect(readFileSync(join(folder, 'a.png'), 'utf8')).toBe('bytes of a.png');
    expect((await fetch(a.url)).status).toBeGreaterThanOrEqual(400);
    // An edit of a removed file is not sent either: a new file written after it is the sign that the
    // watcher's batch with the edit was applied.
    writeFileSync(join(folder, 'a.png'), 'edited after its removal');
    writeFileSync(join(folder, 'f.png'), 'a new file');
    await untilEvent(app, 'the new file live', async () => (await overviewFolder()).counts.live === 4);
    expect((await overviewFolder()).counts).toMatchObject({ live: 4, removedByYou: 2, pending: 0 });
    expect((await indexed()).map((x) => x.name).sort()).toEqual(['c.png', 'd.png', 'e.png', 'f.png']);
  });

  it('"send them again": deleted, then uploaded at once under new links; Activity says why', async () => {
    const c = await idOf('c.png');
    const d = await idOf('d.png');
    const started = await app.call('files.bulkDelete.start', {
      ids: [c.id, d.id],
      folderFiles: 'send-again',
    });
    expect(started.ok, JSON.stringify(started)).toBe(true);
    await jobDone();
    await untilEvent(app, 'both sent again under new ids', async () => {
      const live = syncedFiles(app.context.db).liveFiles();
      return live.length === 4 && !live.some((r) => r.remoteId === c.id || r.remoteId === d.id);
    });
    expect((await fetch(c.url)).status).toBeGreaterThanOrEqual(400);
    const again = (await indexed()).find((x) => x.name === 'c.png')!;
    expect(again.id).not.toBe(c.id);
    expect((await fetch(again.url)).status).toBe(200);
    const activity = await app.call('activity.list', { limit: 50 });
    const said = activity.ok ? activity.value : [];
    const line = said.find((m) =>
      /^c\.png was deleted in this app's Files view \(seen .*\); sending it again, as you chose\./.test(
        m.message,
      ),
    );
    // The person chose it: news, not a Warning (issue 34).
    expect(line?.level).toBe('info');
    expect((await overviewFolder()).counts).toMatchObject({ live: 4, removedByYou: 2, pending: 0 });
  });
});
