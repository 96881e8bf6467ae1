import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceIdentity } from '../../src-main/core/sync/account/service-identity';
import type { SyncEvents } from '../../src-main/core/sync/events';
import {
  countingClient,
  makeEngine,
  md5Of,
  type SyncTestServer,
  startServer,
  tempDir,
  testClient,
} from './helpers';

const BUCKET = 'acct';
let a: SyncTestServer;
let b: SyncTestServer;
let c: SyncTestServer;
beforeAll(async () => {
  [a, b, c] = await Promise.all([startServer(), startServer(), startServer()]);
});
afterAll(async () => {
  await Promise.all([a, b, c].map((s) => s?.stop()));
});

/** Each local file's remote copies in the bucket, by name: exactly one each, with the local md5. */
async function expectOneCopyEach(server: SyncTestServer, dir: string, names: string[]) {
  const live = await server.liveFiles(BUCKET);
  expect(live.map((f) => f.name).sort()).toEqual([...names].sort());
  for (const f of live) expect(f.hash, f.name).toBe(md5Of(join(dir, f.name)));
  return live;
}

describe('sync state belongs to an account', () => {
  it('A -> B (empty) uploads all once and deletes nothing; -> C adopts what C holds; -> another client of A', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'sub'));
    const names = ['a.png', 'b.png', 'c.txt', 'd.json', 'sub/e.png', 'gone.png', 'changed.txt'];
    for (const n of names) writeFileSync(join(dir, n), randomBytes(1500 + names.indexOf(n)));
    const appDir = mkdtempSync(join(tmpdir(), 'sync-app-'));
    try {
      // 1. Everything live on A (a mirror folder: a local delete would delete the remote).
      const onA = makeEngine(testClient(a.baseUrl, a.demoKey), {}, appDir);
      await onA.engine.start();
      expect((await onA.engine.addFolder({ path: dir, bucket: BUCKET, mode: 'mirror' })).ok).toBe(true);
      expect((await onA.engine.waitUntilSettled()).allDone).toBe(true);
      const onAFiles = await expectOneCopyEach(a, dir, names);
      await onA.release();

      // While the app is closed: one file deleted, one changed. Both happened "on A".
      unlinkSync(join(dir, 'gone.png'));
      writeFileSync(join(dir, 'changed.txt'), randomBytes(999));
      const kept = names.filter((n) => n !== 'gone.png');
      // B holds unrelated files whose ids are those A gave ours: a delete sent by A's ids would hit them.
      const bReader = testClient(b.baseUrl, b.demoKey);
      const unrelated = join(dir, '..', `unrelated-${Date.now()}.png`);
      writeFileSync(unrelated, randomBytes(700));
      for (let i = 0; i < onAFiles.length; i++) {
        const up = await bReader.uploadFile({
          path: unrelated,
          size: 700,
          name: `other-${i}.png`,
          bucket: 'other',
          md5: md5Of(unrelated),
        });
        expect(up.ok).toBe(true);
      }
      rmSync(unrelated);
      expect(Math.max(...onAFiles.map((f) => f.id))).toBeLessThanOrEqual(onAFiles.length);

      // 2. The same rows against B: every file checked, all uploaded once, nothing deleted on B.
      const toB = countingClient(b.baseUrl, b.demoKey);
      const onB = makeEngine(toB.client, {}, appDir);
      const events: SyncEvents['file'][] = [];
      onB.engine.on('file', (e) => events.push(e));
      await onB.engine.start();
      const settledB = await onB.engine.waitUntilSettled();
      expect(settledB.allDone).toBe(true);
      await expectOneCopyEach(b, dir, kept);
      expect(toB.count('POST', '/files')).toBe(kept.length);
      expect(toB.count('DELETE')).toBe(0);
      expect((await b.liveFiles('other')).length).toBe(onAFiles.length);
      const rowsB = onB.engine.listFiles({ state: 'LIVE' });
      expect(rowsB.map((r) => r.name).sort()).toEqual([...kept].sort());
      for (const r of rowsB) expect(r.remoteUrl?.startsWith(b.baseUrl), r.name).toBe(true);
      const gone = onB.engine.listFiles({ state: 'DELETED' });
      expect(gone.map((r) => [r.name, r.remoteId])).toEqual([['gone.png', null]]);
      expect(gone[0]!.reason).toMatch(/not deleted on client 1 at/i);
      // Unchanged files were sent with the md5 on record (never read again); the changed one was hashed.
      const hashed = new Set(events.filter((e) => e.to === 'HASHING').map((e) => e.name));
      expect([...hashed]).toEqual(['changed.txt']);
      expect(onB.engine.activity().some((x) => x.kind === 'account-changed')).toBe(true);
      // A was left alone: the local delete of gone.png happened while syncing with A, and is not sent anywhere.
      expect((await a.liveFiles(BUCKET)).length).toBe(names.length);
      await onB.release();

      // 3. C already holds three of the files (same bucket, name, bytes): adopted, only the rest sent.
      const cWriter = testClient(c.baseUrl, c.demoKey);
      const held = ['a.png', 'sub/e.png', 'changed.txt'];
      const heldIds = new Map<string, number>();
      for (const n of held) {
        const p = join(dir, n);
        const up = await cWriter.uploadFile({
          path: p,
          size: statSync(p).size,
          name: n,
          bucket: BUCKET,
          md5: md5Of(p),
        });
        if (!up.ok) throw new Error(up.error.message);
        heldIds.set(n, up.value.id);
      }
      const toC = countingClient(c.baseUrl, c.demoKey);
      const onC = makeEngine(toC.client, {}, appDir);
      await onC.engine.start();
      expect((await onC.engine.waitUntilSettled()).allDone).toBe(true);
      await expectOneCopyEach(c, dir, kept);
      expect(toC.count('POST', '/files')).toBe(kept.length - held.length);
      expect(toC.count('GET', '/files')).toBeGreaterThanOrEqual(1);
      expect(toC.count('DELETE')).toBe(0);
      for (const r of onC.engine.listFiles({ state: 'LIVE' })) {
        if (heldIds.has(r.name)) expect(r.remoteId, r.name).toBe(heldIds.get(r.name));
      }
      expect(onC.engine.activity().find((x) => x.kind === 'account-checked')?.message).toMatch(
        /3 files already on this account were adopted.*3 will be uploaded/,
      );
      await onC.release();

      // 4. Another client at C's address: nothing of client 1's is adopted or touched there.
      const other = await c.admin<{ api_key: string }>('POST', '/clients', { name: 'Other' });
      expect(other.status).toBe(201);
      const toC2 = countingClient(c.baseUrl, other.json.api_key);
      const onC2 = makeEngine(toC2.client, {}, appDir);
      await onC2.engine.start();
      expect((await onC2.engine.waitUntilSettled()).allDone).toBe(true);
      expect(toC2.count('POST', '/files')).toBe(kept.length);
      expect(toC2.count('DELETE')).toBe(0);
      await expectOneCopyEach(c, dir, kept);
      const reader2 = testClient(c.baseUrl, other.json.api_key);
      const client2Files: string[] = [];
      for await (const f of reader2.listAllFiles({ bucket: BUCKET })) client2Files.push(f.name);
      expect(client2Files.sort()).toEqual([...kept].sort());
      await onC2.release();

      // 5. Back to C's client 1: another account change; it holds every file already, so all are adopted.
      const back = countingClient(c.baseUrl, c.demoKey);
      const onC1 = makeEngine(back.client, {}, appDir);
      await onC1.engine.start();
      expect((await onC1.engine.waitUntilSettled()).allDone).toBe(true);
      expect(back.count('POST')).toBe(0);
      expect(back.count('DELETE')).toBe(0);
      await expectOneCopyEach(c, dir, kept);
      await onC1.release();

      // 6. A restart on the same account is no change: /me only, nothing listed or sent.
      const same = countingClient(c.baseUrl, c.demoKey);
      const restarted = makeEngine(same.client, {}, appDir);
      await restarted.engine.start();
      await restarted.engine.waitUntilSettled();
      expect(same.sent).toEqual(['GET /api/assets/v1/me']);
      await restarted.release();
    } finally {
      rmSync(appDir, { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('an unreachable service that may be another account: nothing is sent or changed until it answers', async () => {
    const dir = tempDir();
    for (const n of ['x.png', 'y.png']) writeFileSync(join(dir, n), randomBytes(900));
    const appDir = mkdtempSync(join(tmpdir(), 'sync-app-'));
    try {
      const onA = makeEngine(testClient(a.baseUrl, a.demoKey), {}, appDir);
      await onA.engine.start();
      await onA.engine.addFolder({ path: dir, bucket: 'offline', mode: 'mirror' });
      expect((await onA.engine.waitUntilSettled()).allDone).toBe(true);
      await onA.release();
      unlinkSync(join(dir, 'x.png'));

      // Port 1 of loopback: nothing listens there, every request fails with a network error.
      const nowhere = countingClient('http://127.0.0.1:1', 'no-key');
      const h = makeEngine(nowhere.client, {}, appDir);
      await h.engine.start();
      await new Promise((r) => setTimeout(r, 300));
      expect(h.engine.activity()[0]?.message).toMatch(/nothing is sent until it confirms which account/);
      // Only /me was asked (again, with backoff); the rows still say what they said on A, and the
      // local delete was not turned into a remote one.
      expect(nowhere.sent.length).toBeGreaterThan(1);
      expect(nowhere.sent.every((x) => x.endsWith('/me'))).toBe(true);
      const rows = h.engine.listFiles();
      expect(rows.find((r) => r.name === 'y.png')?.state).toBe('LIVE');
      expect(['DELETING', 'LIVE']).toContain(rows.find((r) => r.name === 'x.png')?.state);
      await h.release();
      expect((await a.liveFiles('offline')).length).toBe(2);
    } finally {
      rmSync(appDir, { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names the sandbox by its data folder: stable across starts, new after a reset', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sync-id-'));
    try {
      mkdirSync(join(dataDir, 'sandbox'));
      const first = serviceIdentity({ kind: 'sandbox', baseUrl: 'http://127.0.0.1:4001' }, dataDir);
      const restarted = serviceIdentity({ kind: 'sandbox', baseUrl: 'http://127.0.0.1:4002' }, dataDir);
      expect(first).toMatch(/^sandbox:[0-9a-f-]{36}$/);
      expect(restarted).toBe(first);
      rmSync(join(dataDir, 'sandbox'), { recursive: true });
      mkdirSync(join(dataDir, 'sandbox'));
      const reset = serviceIdentity({ kind: 'sandbox', baseUrl: 'http://127.0.0.1:4001' }, dataDir);
      expect(reset).not.toBe(first);
      expect(serviceIdentity({ kind: 'account', baseUrl: 'https://x.example' }, dataDir)).toBe(
        'https://x.example',
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
