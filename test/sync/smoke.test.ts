import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEngine, md5Of, type SyncTestServer, startServer, tempDir, testClient } from './helpers';

let server: SyncTestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

describe('a folder becomes live files', () => {
  it('uploads every file once, with its md5, under its relative name', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'sub dir'));
    writeFileSync(join(dir, 'a.txt'), 'hello');
    writeFileSync(join(dir, 'sub dir', 'b.json'), '{"x":1}');
    writeFileSync(join(dir, '.hidden.txt'), 'secret-ish');
    const h = makeEngine(testClient(server.baseUrl, server.demoKey));
    try {
      await h.engine.start();
      const added = await h.engine.addFolder({ path: dir, bucket: 'smoke' });
      expect(added.ok).toBe(true);
      const summary = await h.engine.waitUntilSettled();
      expect(summary.allDone).toBe(true);
      const live = await server.liveFiles('smoke');
      expect(live.map((f) => f.name).sort()).toEqual(['a.txt', 'sub dir/b.json']);
      const a = live.find((f) => f.name === 'a.txt')!;
      expect(a.hash).toBe(md5Of(join(dir, 'a.txt')));
      const rows = h.engine.listFiles();
      expect(rows.every((r) => r.state === 'LIVE' && r.remoteUrl)).toBe(true);
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
