import { renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FolderMode } from '../../src-main/core/sync/types';
import { until } from '../support/wait';
import { makeEngine, md5Of, type SyncTestServer, startServer, tempDir, testClient } from './helpers';

let server: SyncTestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

async function withWatchedFolder(
  mode: FolderMode,
  bucket: string,
  fn: (
    dir: string,
    names: () => Promise<Map<string, string>>,
    h: ReturnType<typeof makeEngine>,
  ) => Promise<void>,
) {
  const dir = tempDir();
  writeFileSync(join(dir, 'a.txt'), 'version one');
  writeFileSync(join(dir, 'b.txt'), 'to be renamed');
  const h = makeEngine(testClient(server.baseUrl, server.demoKey), { watch: true, stabilityMs: 100 });
  const names = async () => new Map((await server.liveFiles(bucket)).map((f) => [f.name, f.hash]));
  try {
    await h.engine.start();
    expect((await h.engine.addFolder({ path: dir, bucket, mode })).ok).toBe(true);
    await h.engine.waitUntilSettled();
    expect([...(await names()).keys()].sort()).toEqual(['a.txt', 'b.txt']);
    await fn(dir, names, h);
  } finally {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('changes, renames and deletes seen by the watcher', () => {
  it('mirror: a new version replaces the old, a rename is reported, a delete deletes the remote', async () => {
    await withWatchedFolder('mirror', 'mirror', async (dir, names, h) => {
      writeFileSync(join(dir, 'a.txt'), 'version two, longer');
      const v2 = md5Of(join(dir, 'a.txt'));
      await until('the new version live and the old one gone', async () => {
        const n = await names();
        return (
          n.get('a.txt') === v2 && [...n.keys()].filter((k) => k === 'a.txt').length === 1 && n.size === 2
        );
      });

      renameSync(join(dir, 'b.txt'), join(dir, 'c.txt'));
      await until('the rename', async () => {
        const n = await names();
        return n.has('c.txt') && !n.has('b.txt');
      });
      const c = h.engine.listFiles().find((r) => r.name === 'c.txt')!;
      expect(c.renamedFrom).toBe('b.txt');
      expect(h.engine.listFiles().find((r) => r.name === 'b.txt')?.reasonCode).toBe('RENAMED');
      expect(
        h.engine
          .activity()
          .some((a) => a.kind === 'rename' && a.message.includes('b.txt was renamed to c.txt')),
      ).toBe(true);

      unlinkSync(join(dir, 'a.txt'));
      await until('the remote delete', async () => !(await names()).has('a.txt'));
      // The service drops the file from its listing before the engine has read the DELETE's reply.
      await until(
        'the row deleted',
        () => h.engine.listFiles().find((r) => r.name === 'a.txt')?.state === 'DELETED',
      );
      expect((await h.engine.waitUntilSettled()).allDone).toBe(true);
    });
  });

  it('upload-only: a local delete keeps the remote file', async () => {
    await withWatchedFolder('upload-only', 'keep', async (dir, names, h) => {
      unlinkSync(join(dir, 'a.txt'));
      await until(
        'the row deleted',
        () => h.engine.listFiles().find((r) => r.name === 'a.txt')?.state === 'DELETED',
      );
      expect((await names()).has('a.txt')).toBe(true);
    });
  });
});
