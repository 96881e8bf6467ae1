import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEngine, md5Of, type SyncTestServer, startServer, tempDir, testClient } from './helpers';

let server: SyncTestServer;
beforeAll(async () => {
  server = await startServer({ ratePerMinute: 0 });
});
afterAll(async () => {
  await server.stop();
});

describe('uploads under injected faults', () => {
  it('300 files against 20% storage failures and 5% dropped connections: exactly 300 live, none twice', async () => {
    const dir = tempDir();
    const expected = new Map<string, string>();
    for (let i = 0; i < 300; i++) {
      const name = `f${String(i).padStart(3, '0')}.txt`;
      writeFileSync(join(dir, name), randomBytes(512 + (i % 7) * 300));
      expected.set(name, md5Of(join(dir, name)));
    }
    const faults = await server.admin('PUT', '/faults', {
      storage_fail_rate: 0.2,
      connection_reset_rate: 0.05,
    });
    expect(faults.status).toBe(200);
    const h = makeEngine(testClient(server.baseUrl, server.demoKey), { stabilityMs: 0 });
    const seenCodes = new Set<string>();
    h.engine.on('file', (e) => {
      if (e.reasonCode) seenCodes.add(e.reasonCode);
    });
    try {
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'faults' })).ok).toBe(true);
      const summary = await h.engine.waitUntilSettled();
      await server.admin('PUT', '/faults', { storage_fail_rate: 0, connection_reset_rate: 0 });
      expect(summary.counts.LIVE).toBe(300);
      expect(summary.allDone).toBe(true);
      // The faults really happened (the test would prove nothing on a fault-free server).
      expect(seenCodes.has('STORAGE-FAILED')).toBe(true);
      expect(seenCodes.has('NETWORK')).toBe(true);

      const live = await server.liveFiles('faults');
      expect(live).toHaveLength(300);
      const byName = new Map(live.map((f) => [f.name, f]));
      expect(byName.size).toBe(300);
      for (const [name, md5] of expected) expect(byName.get(name)?.hash, name).toBe(md5);
      const dups = await h.engine.findDuplicates();
      expect(dups.ok && dups.value).toEqual([]);
      // Every row points to the copy the server holds.
      for (const r of h.engine.listFiles({ limit: 1000 })) expect(byName.get(r.name)?.id).toBe(r.remoteId);
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
