import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncEvents } from '../../src-main/core/sync/events';
import { createHasher, HASHER_CLOSED, HASHER_FAILED } from '../../src-main/core/sync/hash/hasher';
import { makeEngine, md5Of, type SyncTestServer, startServer, tempDir, testClient, until } from './helpers';

/** Terminates the worker right after each of the first `n` jobs is posted to it: the job dies with it. */
function killer(n: number) {
  const state = { kills: 0 };
  const onJobPosted = (w: Worker) => {
    if (state.kills >= n) return;
    state.kills++;
    void w.terminate();
  };
  return { state, onJobPosted };
}

describe('the hasher when its worker dies', () => {
  const dir = tempDir('hasher-');
  const file = join(dir, 'data.bin');
  // Large enough (several 4 MiB reads) that the worker is always terminated before it can answer.
  writeFileSync(file, randomBytes(32 * 1024 * 1024 + 17));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('starts a new worker and reads the file again on it', async () => {
    const k = killer(1);
    const hasher = createHasher(1, { onJobPosted: k.onJobPosted });
    try {
      const r = await hasher.md5(file);
      expect(k.state.kills).toBe(1);
      expect(r.ok && r.value.md5).toBe(md5Of(file));
    } finally {
      await hasher.close();
    }
  });

  it('says HASHER-FAILED when the second worker dies too, and hashes the next file on a third', async () => {
    const k = killer(2);
    const hasher = createHasher(1, { onJobPosted: k.onJobPosted });
    try {
      const first = await hasher.md5(file);
      expect(first.ok ? 'ok' : first.error.code).toBe(HASHER_FAILED);
      const next = await hasher.md5(file);
      expect(next.ok && next.value.md5).toBe(md5Of(file));
      expect(k.state.kills).toBe(2);
    } finally {
      await hasher.close();
    }
  });
});

describe('the hasher when it is closed', () => {
  const dir = tempDir('hasher-close-');
  const big = join(dir, 'big.bin');
  const small = join(dir, 'small.bin');
  writeFileSync(big, randomBytes(32 * 1024 * 1024));
  writeFileSync(small, randomBytes(1024));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers every caller: the file on the worker and the ones waiting for it', async () => {
    // One worker: the first file holds it, the next two wait in the queue for it.
    let posted = () => {};
    const onWorker = new Promise<void>((r) => {
      posted = r;
    });
    const hasher = createHasher(1, { onJobPosted: () => posted() });
    const answers: string[] = [];
    const calls = [big, small, small].map((f) =>
      hasher.md5(f).then((r) => answers.push(r.ok ? 'ok' : r.error.code)),
    );
    await onWorker;
    await hasher.close();
    // Every answer is due once close() has ended (replies travel through a few promise turns).
    for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
    expect(answers.length).toBe(3);
    expect(answers.filter((a) => a === HASHER_CLOSED).length).toBeGreaterThanOrEqual(2);
    await Promise.all(calls);
    // Closed: a later call is answered at once too.
    const late = await hasher.md5(small);
    expect(late.ok ? 'ok' : late.error.code).toBe(HASHER_CLOSED);
  });
});

describe('the engine when the hasher worker dies under a file', () => {
  let server: SyncTestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('reads the file again and it goes live', async () => {
    const dir = tempDir();
    // Two 4 MiB reads, under the engine's large-file size (hashed while sent): a 64 KB file was hashed
    // before the worker was terminated under load.
    writeFileSync(join(dir, 'victim.png'), randomBytes(7 * 1024 * 1024));
    // Two deaths: the hasher's own retry dies too, so the row goes back to NEW and is read later.
    const k = killer(2);
    const h = makeEngine(testClient(server.baseUrl, server.demoKey), {
      hasher: createHasher(1, { onJobPosted: k.onJobPosted }),
    });
    const moves: string[] = [];
    h.engine.on('file', (e: SyncEvents['file']) => moves.push(`${e.from}>${e.to}`));
    try {
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'hasher' })).ok).toBe(true);
      await until('the file live', () => h.engine.listFiles({ state: 'LIVE' }).length === 1);
      expect(k.state.kills).toBe(2);
      expect(moves).toContain('HASHING>NEW');
      expect(h.engine.activity().some((a) => a.kind === 'hash-retried')).toBe(true);
      const [remote] = await server.liveFiles('hasher');
      expect(remote?.hash).toBe(md5Of(join(dir, 'victim.png')));
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a folder just added: the hasher's worker starts beside the listing", () => {
  let server: SyncTestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  it("is warmed by addFolder before the first file is hashed (a drop's first file does not wait a thread start)", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.txt'), 'first');
    const inner = createHasher(1);
    const calls: string[] = [];
    const hasher = {
      md5: (path: string) => {
        calls.push('md5');
        return inner.md5(path);
      },
      warm: () => {
        calls.push('warm');
        inner.warm?.();
      },
      close: () => inner.close(),
    };
    const h = makeEngine(testClient(server.baseUrl, server.demoKey), { hasher });
    try {
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'warm' })).ok).toBe(true);
      await until('the file live', () => h.engine.listFiles({ state: 'LIVE' }).length === 1);
      expect(calls[0]).toBe('warm');
      expect(calls).toContain('md5');
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
