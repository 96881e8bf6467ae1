import { mkdirSync, realpathSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHasher } from '../../src-main/core/sync/hash/hasher';
import type { FileRow } from '../../src-main/core/sync/types';
import { makeEngine, md5Of, type SyncTestServer, startServer, tempDir, testClient, until } from './helpers';

let server: SyncTestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

const byName = (rows: FileRow[]) => new Map(rows.map((r) => [r.name, r]));
const FINAL = ['LIVE', 'SKIPPED', 'DELETED', 'FAILED'];

/** A folder outside the synced one, holding what must never leave the machine. */
function outsideFolder() {
  const dir = realpathSync(tempDir('outside-'));
  mkdirSync(join(dir, 'private'));
  writeFileSync(join(dir, 'secret.txt'), 'the password is swordfish');
  writeFileSync(join(dir, 'private', 'x.txt'), 'outside x');
  return dir;
}

describe('links that leave the synced folder', () => {
  it('are skipped with LINK-OUTSIDE-FOLDER naming the target; links inside are followed', async () => {
    const outside = outsideFolder();
    const parent = realpathSync(tempDir());
    const dir = join(parent, 'synced');
    mkdirSync(join(dir, 'real'), { recursive: true });
    writeFileSync(join(dir, 'real', 'data.txt'), 'inside data');
    symlinkSync(join(outside, 'secret.txt'), join(dir, 'p.txt'));
    symlinkSync(relative(dir, join(outside, 'secret.txt')), join(dir, 'relative.txt'));
    symlinkSync('real/data.txt', join(dir, 'ok.txt'));
    symlinkSync(join(outside, 'private'), join(dir, 'linked-dir'));
    // The folder is added by a path that goes through a link (as /tmp is on macOS): inside is judged
    // by real paths on both sides.
    const viaLink = join(tempDir('root-link-'), 'parent');
    symlinkSync(parent, viaLink);

    const h = makeEngine(testClient(server.baseUrl, server.demoKey));
    try {
      await h.engine.start();
      const added = await h.engine.addFolder({ path: join(viaLink, 'synced'), bucket: 'links' });
      expect(added.ok).toBe(true);
      await h.engine.waitUntilSettled();
      const rows = byName(h.engine.listFiles({ limit: 100 }));
      for (const name of ['p.txt', 'relative.txt', 'linked-dir']) {
        expect(rows.get(name)?.state, name).toBe('SKIPPED');
        expect(rows.get(name)?.reasonCode, name).toBe('LINK-OUTSIDE-FOLDER');
      }
      expect(rows.get('p.txt')?.reason).toContain(join(outside, 'secret.txt'));
      expect(rows.get('linked-dir')?.reason).toContain(join(outside, 'private'));
      expect(rows.get('ok.txt')?.state).toBe('LIVE');
      expect(rows.get('real/data.txt')?.state).toBe('LIVE');
      const live = await server.liveFiles('links');
      expect(live.map((f) => f.name).sort()).toEqual(['ok.txt', 'real/data.txt']);
      expect(live.some((f) => f.hash === md5Of(join(outside, 'secret.txt')))).toBe(false);

      // The folder's setting lets outside links through (folders still are not descended).
      const folder = h.engine.listFolders()[0]!;
      expect(folder.followOutsideLinks).toBe(false);
      const updated = await h.engine.updateFolder(folder.id, { followOutsideLinks: true });
      expect(updated.ok && updated.value.followOutsideLinks).toBe(true);
      await h.engine.waitUntilSettled();
      const after = byName(h.engine.listFiles({ limit: 100 }));
      expect(after.get('p.txt')?.state).toBe('LIVE');
      expect(after.get('relative.txt')?.state).toBe('LIVE');
      expect(after.get('linked-dir')?.reasonCode).toBe('LINKED-FOLDER');
      expect((await server.liveFiles('links')).some((f) => f.name === 'private/x.txt')).toBe(false);
    } finally {
      await h.close();
      for (const d of [parent, outside, join(viaLink, '..')]) rmSync(d, { recursive: true, force: true });
    }
  });

  it('are skipped when the watcher sees them appear', async () => {
    const outside = outsideFolder();
    const dir = realpathSync(tempDir());
    writeFileSync(join(dir, 'first.txt'), 'first');
    const h = makeEngine(testClient(server.baseUrl, server.demoKey), { watch: true });
    try {
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'links-watch' })).ok).toBe(true);
      await until('first.txt live', () => h.engine.listFiles({ state: 'LIVE' }).length === 1);
      symlinkSync(join(outside, 'secret.txt'), join(dir, 'p.txt'));
      writeFileSync(join(dir, 'second.txt'), 'second');
      const settled = (name: string) => {
        const r = byName(h.engine.listFiles({ limit: 100 })).get(name);
        return r !== undefined && FINAL.includes(r.state);
      };
      await until('the link and the file settled', () => settled('p.txt') && settled('second.txt'));
      const rows = byName(h.engine.listFiles({ limit: 100 }));
      expect([rows.get('p.txt')?.state, rows.get('p.txt')?.reasonCode]).toEqual([
        'SKIPPED',
        'LINK-OUTSIDE-FOLDER',
      ]);
      expect(rows.get('second.txt')?.state).toBe('LIVE');
      const live = await server.liveFiles('links-watch');
      expect(live.some((f) => f.hash === md5Of(join(outside, 'secret.txt')))).toBe(false);
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('are checked again at upload time: a link or folder retargeted after hashing sends nothing outside', async () => {
    const outside = outsideFolder();
    const dir = realpathSync(tempDir());
    mkdirSync(join(dir, 'inside'));
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'inside', 'a.txt'), 'inside a');
    writeFileSync(join(dir, 'sub', 'x.txt'), 'inside x');
    symlinkSync(join(dir, 'inside', 'a.txt'), join(dir, 'p.txt'));
    // A client of its own, so draining its wallet touches no other test.
    const made = await server.admin<{ api_key: string; client: { id: number } }>('POST', '/clients', {
      name: 'links-money',
      wallet_paise: 10_000,
    });
    expect(made.status).toBe(201);
    const clientId = made.json.client.id;
    const h = makeEngine(testClient(server.baseUrl, made.json.api_key), { pausePollMs: 100 });
    try {
      // Under the 5,000 paise floor: every upload answers 402 and waits, hashed, as PAUSED.
      expect(
        (await server.admin('POST', `/clients/${clientId}/wallet`, { amount_paise: -9_000 })).status,
      ).toBe(200);
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'links-late' })).ok).toBe(true);
      await until('the files hashed and held by the account', () => {
        const paused = h.engine.listFiles({ state: 'PAUSED', limit: 100 });
        return paused.length === 3 && paused.every((r) => r.md5 !== null);
      });
      // Retargeted between hash and upload: the link now leaves, and so does a folder on the path.
      unlinkSync(join(dir, 'p.txt'));
      symlinkSync(join(outside, 'secret.txt'), join(dir, 'p.txt'));
      rmSync(join(dir, 'sub'), { recursive: true });
      symlinkSync(join(outside, 'private'), join(dir, 'sub'));

      expect(
        (await server.admin('POST', `/clients/${clientId}/wallet`, { amount_paise: 50_000 })).status,
      ).toBe(200);
      await h.engine.waitUntilSettled();
      const reader = testClient(server.baseUrl, made.json.api_key);
      const live: { name: string; hash: string }[] = [];
      for await (const f of reader.listAllFiles({ bucket: 'links-late' })) live.push(f);
      const leaked = [md5Of(join(outside, 'secret.txt')), md5Of(join(outside, 'private', 'x.txt'))];
      expect(live.filter((f) => leaked.includes(f.hash))).toEqual([]);
      expect(live.map((f) => f.name)).toEqual(['inside/a.txt']);
      const rows = byName(h.engine.listFiles({ limit: 100 }));
      expect([rows.get('p.txt')?.state, rows.get('p.txt')?.reasonCode]).toEqual([
        'SKIPPED',
        'LINK-OUTSIDE-FOLDER',
      ]);
      expect(rows.get('sub/x.txt')?.state).not.toBe('LIVE');
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe('a folder on the way moved out and linked back while a file is hashed', () => {
  it('is caught by the check after the hash: the row never reaches QUEUED and ends LINK-OUTSIDE-FOLDER', async () => {
    const outside = realpathSync(tempDir('outside-'));
    const dir = realpathSync(tempDir());
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'x.txt'), 'inside x, then outside');
    // Moved (same inode, size and mtime: only the path's scope tells the difference) while the worker
    // reads it, and a link left in its place.
    const hasher = createHasher(1, {
      onJobPosted: () => {
        renameSync(join(dir, 'sub'), join(outside, 'sub'));
        symlinkSync(join(outside, 'sub'), join(dir, 'sub'));
      },
    });
    const h = makeEngine(testClient(server.baseUrl, server.demoKey), { hasher });
    const moves: string[] = [];
    h.engine.on('file', (e) => moves.push(`${e.from}>${e.to}`));
    try {
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'moved-out' })).ok).toBe(true);
      await h.engine.waitUntilSettled();
      const [row] = h.engine.listFiles();
      expect(row?.state).toBe('SKIPPED');
      expect(row?.reasonCode).toBe('LINK-OUTSIDE-FOLDER');
      expect(moves).toContain('HASHING>NEW');
      expect(moves).not.toContain('HASHING>QUEUED');
      expect(await server.liveFiles('moved-out')).toEqual([]);
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe('listing a tree with links that leave it', () => {
  it('both listers (find and the walk) skip them the same way, and follow them when allowed', async () => {
    const { ignoreRules } = await import('../../src-main/core/sync/local/ignore-rules');
    const { listTree } = await import('../../src-main/core/sync/local/list-tree');
    const outside = outsideFolder();
    const dir = realpathSync(tempDir());
    writeFileSync(join(dir, 'a.txt'), 'a');
    symlinkSync(join(outside, 'secret.txt'), join(dir, 'p.txt'));
    symlinkSync('a.txt', join(dir, 'in.txt'));
    const list = async (expected: number, followOutsideLinks: boolean) => {
      const walk = listTree(dir, ignoreRules(), () => undefined, expected, { path: dir, followOutsideLinks });
      const seen: Record<string, string> = {};
      for await (const batch of walk.batches)
        for (const l of batch) seen[l.name] = l.seen.kind === 'skip' ? l.seen.code : l.seen.kind;
      return seen;
    };
    try {
      const strict = { 'a.txt': 'file', 'in.txt': 'file', 'p.txt': 'LINK-OUTSIDE-FOLDER' };
      expect(await list(Number.POSITIVE_INFINITY, false)).toEqual(strict);
      expect(await list(0, false)).toEqual(strict);
      const open = { 'a.txt': 'file', 'in.txt': 'file', 'p.txt': 'file' };
      expect(await list(Number.POSITIVE_INFINITY, true)).toEqual(open);
      expect(await list(0, true)).toEqual(open);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
