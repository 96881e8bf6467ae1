import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRemoteIndex } from '../../src-main/core/remote-index/remote-index';
import {
  createFileApiClient,
  type RemoteEvent,
  remoteEventText,
} from '../../src-main/core/service/file-api-client';
import { closePools } from '../../src-main/core/service/http-pool';
import { createRequestBudget } from '../../src-main/core/service/request-budget';
import { APP_MIGRATIONS } from '../../src-main/core/state/migrations';
import { openDatabase } from '../../src-main/shared-node/sqlite';
import { makeEngine, until } from '../sync/helpers';
import { countedClient, liveIds, serverWithClient, tempAppDb } from './helpers';

// This app's own uploads and deletes reach the index at once, through the client's onRemote:
// the sync engine is not changed and no listing request is spent.

let env: Awaited<ReturnType<typeof serverWithClient>>;
let dir: string;
beforeAll(async () => {
  env = await serverWithClient();
  await env.seed(150);
  dir = mkdtempSync(join(tmpdir(), 'follow-'));
});
afterAll(async () => {
  await closePools();
  await env.srv.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the index follows this app', () => {
  it("the engine's uploads and a replaced version's delete show in the index with no listing", async () => {
    const service = 'follow-test';
    let follow: ((e: RemoteEvent) => void) | null = null;
    const c = countedClient(env.srv.baseUrl, env.apiKey, { onRemote: (e) => follow?.(e) });
    // The engine's database is the app's database: the index lives in it too.
    let h = makeEngine(c.client, { service });
    let index = createRemoteIndex(h.db);
    follow = index.follower(service);
    let idx = index.forAccount({ service, clientId: env.clientId });
    try {
      expect((await idx.refresh(c.client)).ok).toBe(true);
      expect(idx.status().count).toBe(150);

      writeFileSync(join(dir, 'price-list.pdf'), randomBytes(900));
      writeFileSync(join(dir, 'brochure.pdf'), randomBytes(700));
      c.reset();
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'docs' })).ok).toBe(true);
      expect((await h.engine.waitUntilSettled()).allDone).toBe(true);
      const live = h.engine.listFiles({ state: 'LIVE' });
      expect(live.length).toBe(2);
      for (const row of live)
        expect(idx.get(row.remoteId!)).toMatchObject({
          id: row.remoteId,
          url: row.remoteUrl,
          bucket: 'docs',
        });
      const before = live.find((r) => r.name === 'price-list.pdf')!;

      // A new version while the app is closed: at the next start it is uploaded, then the old copy
      // deleted by the engine; both reach the index at once.
      await h.release();
      writeFileSync(join(dir, 'price-list.pdf'), randomBytes(950));
      h = makeEngine(c.client, { service }, h.appDir);
      index = createRemoteIndex(h.db);
      follow = index.follower(service);
      idx = index.forAccount({ service, clientId: env.clientId });
      await h.engine.start();
      expect((await h.engine.waitUntilSettled()).allDone).toBe(true);
      const after = h.engine.listFiles({ state: 'LIVE' }).find((r) => r.name === 'price-list.pdf')!;
      expect(after.remoteId).not.toBe(before.remoteId);
      expect(idx.get(after.remoteId!)).toMatchObject({ size: 950 });
      // The old version's delete is the engine's background work: wait for its DELETE, not a clock.
      await until('the old version deleted', () => c.sent.some((s) => s.method === 'DELETE'));
      expect(idx.get(before.remoteId!)).toBeNull();
      // One listing only: the check at folder add for files already in the bucket (adopt-at-add.ts);
      // the index itself followed the engine without listing.
      expect(c.listings()).toBe(1);
      expect([...idx.each()].map((f) => f.id).sort()).toEqual((await liveIds(c.client)).sort());
    } finally {
      await h.close();
    }
  });

  it('a delete of an id applies to whichever account of the service holds it; new files wait for /me', () => {
    // No server needed: the follower is fed the events a client would send.
    const app = tempAppDb();
    try {
      const index = createRemoteIndex(app.db);
      const a = index.forAccount({ service: 's', clientId: 1 });
      const follow = index.follower('s');
      const file = (id: number) => ({
        id,
        url: `http://cdn/${id}.pdf`,
        bucket: 'b',
        name: `${id}.pdf`,
        extension: 'pdf',
        mime: 'application/pdf',
        size_bytes: 1,
        hash: '0'.repeat(32),
        status: 'ACTIVE' as const,
        created_at: '2026-01-01 10:00',
      });
      follow({ kind: 'live', file: file(5) });
      expect(a.get(5)).toBeNull();
      follow({ kind: 'account', clientId: 1 });
      expect(a.get(5)).toMatchObject({ id: 5 });
      follow({ kind: 'live', file: file(6) });
      expect(index.follower('s')({ kind: 'gone', id: 6 })).toBeUndefined();
      expect(a.get(6)).toBeNull();
      expect(a.status().count).toBe(1);
    } finally {
      app.close();
    }
  });

  // The app's follower (app-service.ts): a sync of 20,000 files paid one commit per upload, the largest
  // cost the app service added to the engine's (docs/benchmarks.md). Events now wait a short interval
  // and go in one transaction; a read of the index writes them first, so nothing reads stale.
  it('batched: a burst is one commit, a read sees it before the interval, a failed commit keeps every event', async () => {
    const app = tempAppDb();
    // Another connection, as another process would read the file: it sees only what was committed.
    const other = openDatabase(join(app.dir, 'app.sqlite'), APP_MIGRATIONS);
    const rowsSeen = () =>
      (other.prepare('SELECT COUNT(*) AS n FROM remote_index_files').get() as { n: number }).n;
    const file = (id: number) => ({
      id,
      url: `http://cdn/${id}.pdf`,
      bucket: 'b',
      name: `${id}.pdf`,
      extension: 'pdf',
      mime: 'application/pdf',
      size_bytes: 1,
      hash: '0'.repeat(32),
      status: 'ACTIVE' as const,
      created_at: '2026-01-01 10:00',
    });
    try {
      const index = createRemoteIndex(app.db);
      const commits: number[] = [];
      const failures: string[] = [];
      let committed: () => void = () => {};
      const follow = index.follower('s', undefined, {
        everyMs: 50,
        onCommit: (n) => {
          commits.push(n);
          committed();
        },
        onError: (events, e) => failures.push(`${events.length}: ${(e as Error).message}`),
      });
      const a = index.forAccount({ service: 's', clientId: 1 });
      const nextCommit = () =>
        new Promise<void>((resolve) => {
          committed = resolve;
        });

      // A burst of replies: nothing is written until its batch goes, then all of it in one commit.
      const first = nextCommit();
      follow({ kind: 'account', clientId: 1 });
      for (let id = 1; id <= 50; id++) follow({ kind: 'live', file: file(id) });
      expect(rowsSeen()).toBe(0);
      await first;
      expect(commits).toEqual([51]);
      expect(rowsSeen()).toBe(50);

      // A read through the index does not wait for the interval: it writes what waits first.
      follow({ kind: 'live', file: file(51) });
      follow({ kind: 'gone', id: 3 });
      expect(a.get(51)).toMatchObject({ id: 51 });
      expect(a.get(3)).toBeNull();
      expect(commits).toEqual([51, 2]);

      // A commit the database refuses: every event of the batch waits, the in-memory account and
      // held files included (the rollback undid their writes), and the next batch brings them.
      const b = index.forAccount({ service: 's', clientId: 2 });
      const follow2 = index.follower('s', undefined, {
        everyMs: 50,
        onError: (events, e) => failures.push(`${events.length}: ${(e as Error).message}`),
      });
      app.db.exec(`CREATE TRIGGER busy BEFORE INSERT ON remote_index_files
                   BEGIN SELECT RAISE(ABORT, 'database is locked (planted)'); END`);
      follow2({ kind: 'live', file: file(60) });
      follow2({ kind: 'account', clientId: 2 });
      follow2({ kind: 'live', file: file(61) });
      follow2.flush();
      expect(failures).toEqual(['3: database is locked (planted)']);
      app.db.exec('DROP TRIGGER busy');
      follow2({ kind: 'live', file: file(62) });
      expect([60, 61, 62].map((id) => b.get(id)?.id ?? null)).toEqual([60, 61, 62]);
    } finally {
      other.close();
      app.close();
    }
  });

  it('a write the database refuses (SQLITE_BUSY) ends nothing: said with the event, applied with the next reply', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (e: unknown) => uncaught.push(e);
    process.on('uncaughtException', onUncaught);
    process.on('unhandledRejection', onUncaught);
    const service = 'follow-busy';
    const said: string[] = [];
    let follow: ((e: RemoteEvent) => void) | null = null;
    const client = createFileApiClient({
      baseUrl: env.srv.baseUrl,
      apiKey: env.apiKey,
      budget: createRequestBudget({ perMinute: 0 }),
      onRemote: (e) => follow?.(e),
      onRemoteError: (e, error) => said.push(`${remoteEventText(e)}: ${(error as Error).message}`),
    });
    const h = makeEngine(client, { service });
    const index = createRemoteIndex(h.db);
    follow = index.follower(service);
    const idx = index.forAccount({ service, clientId: env.clientId });
    const first = join(dir, 'busy-first');
    const second = join(dir, 'busy-second');
    mkdirSync(first);
    mkdirSync(second);
    writeFileSync(join(first, 'menu.pdf'), randomBytes(600));
    writeFileSync(join(second, 'hours.pdf'), randomBytes(500));
    h.db.exec(`CREATE TRIGGER busy BEFORE INSERT ON remote_index_files
               BEGIN SELECT RAISE(ABORT, 'database is locked (planted)'); END`);
    try {
      await h.engine.start();
      expect((await h.engine.addFolder({ path: first, bucket: 'busy' })).ok).toBe(true);
      expect((await h.engine.waitUntilSettled()).allDone).toBe(true);
      const menu = h.engine.listFiles({ state: 'LIVE' })[0]!;
      expect(
        said.some((l) => l.startsWith(`file ${menu.remoteId} (menu.pdf) live: database is locked`)),
      ).toBe(true);
      expect(idx.get(menu.remoteId!)).toBeNull();
      // The database works again: the next reply brings the one that waited along with its own.
      h.db.exec('DROP TRIGGER busy');
      expect((await h.engine.addFolder({ path: second, bucket: 'busy' })).ok).toBe(true);
      expect((await h.engine.waitUntilSettled()).allDone).toBe(true);
      for (const row of h.engine.listFiles({ state: 'LIVE' })) expect(idx.get(row.remoteId!)).not.toBeNull();
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
      process.off('unhandledRejection', onUncaught);
      await h.close();
    }
  });
});
