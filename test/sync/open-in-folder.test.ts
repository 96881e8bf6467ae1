import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openInFolder } from '../../src-main/core/sync/local/open-in-folder';
import { md5Of, type SyncTestServer, startServer, tempDir, testClient } from './helpers';

let server: SyncTestServer;
let root: string;
let folder: string;
let outside: string;
beforeAll(async () => {
  server = await startServer();
  root = realpathSync(tempDir('open-in-folder-'));
  folder = join(root, 'folder');
  outside = join(root, 'outside');
  mkdirSync(folder);
  mkdirSync(outside);
  writeFileSync(join(folder, 'a.txt'), 'inside bytes');
  writeFileSync(join(outside, 'secret.txt'), 'outside bytes, same size?');
  symlinkSync(join(outside, 'secret.txt'), join(folder, 'out.txt'));
  symlinkSync('a.txt', join(folder, 'in.txt'));
  execFileSync('mkfifo', [join(folder, 'pipe.txt')]);
});
afterAll(async () => {
  await server.stop();
  rmSync(root, { recursive: true, force: true });
});

const scope = (followOutsideLinks = false) => ({ path: folder, followOutsideLinks });

describe('opening a file for its upload', () => {
  it('refuses a link that leaves the folder, unless the folder allows it', async () => {
    const refused = await openInFolder(join(folder, 'out.txt'), scope());
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.seen).toMatchObject({ kind: 'skip', code: 'LINK-OUTSIDE-FOLDER' });
      if (refused.seen.kind === 'skip') expect(refused.seen.message).toContain(join(outside, 'secret.txt'));
    }
    const allowed = await openInFolder(join(folder, 'out.txt'), scope(true));
    expect(allowed.ok).toBe(true);
    if (allowed.ok) await allowed.handle.close();
  });

  it('opens files and links inside, and a FIFO is refused without hanging the open', async () => {
    for (const name of ['a.txt', 'in.txt']) {
      const o = await openInFolder(join(folder, name), scope());
      expect(o.ok, name).toBe(true);
      if (o.ok) await o.handle.close();
    }
    const pipe = await openInFolder(join(folder, 'pipe.txt'), scope());
    expect(pipe).toMatchObject({ ok: false, seen: { kind: 'skip', code: 'NOT-A-FILE' } });
    const gone = await openInFolder(join(folder, 'nothing.txt'), scope());
    expect(gone).toMatchObject({ ok: false, seen: { kind: 'gone' } });
  });

  it('sends the bytes of the file that was checked, even when the link is retargeted before the upload', async () => {
    const link = join(folder, 'moving.txt');
    symlinkSync('a.txt', link);
    const opened = await openInFolder(link, scope());
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    unlinkSync(link);
    symlinkSync(join(outside, 'secret.txt'), link);
    try {
      const client = testClient(server.baseUrl, server.demoKey);
      const sent = await client.uploadFile({
        path: link,
        handle: opened.handle,
        size: opened.stat.size,
        name: 'moving.txt',
        bucket: 'open-check',
        md5: md5Of(join(folder, 'a.txt')),
      });
      expect(sent.ok).toBe(true);
      if (sent.ok) expect(sent.value.hash).toBe(md5Of(join(folder, 'a.txt')));
    } finally {
      await opened.handle.close();
    }
  });
});
