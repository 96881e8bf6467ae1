import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tcpDoor } from '../support/tcp-door';
import { countingClient, makeEngine, type SyncTestServer, startServer, tempDir, until } from './helpers';

let server: SyncTestServer;
let door: Awaited<ReturnType<typeof tcpDoor>>;
beforeAll(async () => {
  server = await startServer();
  door = await tcpDoor(Number(new URL(server.baseUrl).port));
});
afterAll(async () => {
  await door.block();
  await server.stop();
});

describe('connectivity: the core knows when the service gives no answer', () => {
  it('a refused connection is offline at once; only /me probes go out; back online the queue resumes by itself', async () => {
    const dir = tempDir();
    const c = countingClient(door.url(), server.demoKey);
    const h = makeEngine(c.client, { watch: true, stabilityMs: 100 });
    const seen: boolean[] = [];
    h.engine.on('connectivity', (e) => seen.push(e.offline));
    try {
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'door' })).ok).toBe(true);
      writeFileSync(join(dir, 'one.txt'), 'one');
      await until('the first file live', () => h.engine.listFiles({ state: 'LIVE' }).length === 1);
      expect(h.engine.state.offline).toBeNull();

      await door.block();
      writeFileSync(join(dir, 'two.txt'), 'two');
      writeFileSync(join(dir, 'three.txt'), 'three');
      await until('offline', () => h.engine.state.offline !== null);
      const offline = h.engine.state.offline!;
      expect(offline.code).toBe('NETWORK');
      expect(offline.nextTryAt).toBeGreaterThanOrEqual(offline.since);
      expect(seen).toEqual([true]);
      // Nothing but the probe is sent while offline: no upload is tried again and again.
      const uploadsBefore = c.count('POST', '/files');
      await until(
        'a probe of /me failed',
        () => (h.engine.state.offline?.nextTryAt ?? 0) > offline.nextTryAt,
      );
      expect(c.count('POST', '/files')).toBe(uploadsBefore);
      expect(h.engine.listFiles({ state: 'LIVE' })).toHaveLength(1);

      await door.open();
      h.engine.checkNow();
      await until('online again', () => h.engine.state.offline === null);
      await until('every file live', () => h.engine.listFiles({ state: 'LIVE' }).length === 3);
      expect(seen.at(-1)).toBe(false);
      // Activity: one line when it went offline, one when it came back with the period in IST (issue 34:
      // "Back online after about 1 min" said neither when nor for how long); none per failed request.
      const lines = h.engine.activity({ limit: 200 });
      expect(lines.filter((a) => a.kind === 'offline')).toHaveLength(1);
      const back = lines.filter((a) => a.kind === 'online');
      expect(back).toHaveLength(1);
      expect(back[0]!.message).toMatch(
        /^Back online: the service did not answer (for (\d+ s|under a second) at \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} IST|from \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} to .+ IST); waiting uploads resume\.$/,
      );
      expect((await server.liveFiles('door')).map((f) => f.name).sort()).toEqual([
        'one.txt',
        'three.txt',
        'two.txt',
      ]);
    } finally {
      await door.open().catch(() => undefined);
      await h.engine.stop();
    }
  });

  it('an HTTP answer is not offline: 502 STORAGE-FAILED leaves the engine online', async () => {
    const dir = tempDir();
    const h = makeEngine(countingClient(door.url(), server.demoKey).client, {
      watch: true,
      stabilityMs: 100,
      // The failed row stays FAILED long enough to be looked at.
      backoff: { baseMs: 30_000, capMs: 30_000, maxAttempts: 3 },
    });
    expect((await server.admin('PUT', '/faults', { storage_fail_rate: 1 })).status).toBe(200);
    try {
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'faults' })).ok).toBe(true);
      writeFileSync(join(dir, 'x.txt'), 'x');
      await until('the upload failed', () => h.engine.listFiles({ state: 'FAILED' }).length === 1);
      expect(h.engine.state.offline).toBeNull();
      // What happened only: what comes next is worded where it is shown (failure-text.ts).
      expect(h.engine.listFiles({ state: 'FAILED' })[0]!.reason).not.toMatch(/will be retried/i);
    } finally {
      await server.admin('PUT', '/faults', { storage_fail_rate: 0 });
      await h.engine.stop();
    }
  });
});
