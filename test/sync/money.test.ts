import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../support/wait';
import { makeEngine, type SyncTestServer, startServer, tempDir, testClient } from './helpers';

let server: SyncTestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

describe('the wallet runs dry in the middle of a run', () => {
  it('pauses every upload on 402, polls /me, and resumes by itself after a top-up', async () => {
    const dir = tempDir();
    const h = makeEngine(testClient(server.baseUrl, server.demoKey), {
      watch: true,
      stabilityMs: 100,
      pausePollMs: 150,
    });
    const seen: string[] = [];
    h.engine.on('paused', (p) => seen.push(`paused:${p.code}`));
    h.engine.on('resumed', () => seen.push('resumed'));
    try {
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'money' })).ok).toBe(true);
      for (let i = 0; i < 5; i++) writeFileSync(join(dir, `first-${i}.png`), randomBytes(2048));
      await until(
        'the first files live (seen by the watcher)',
        () => h.engine.listFiles({ state: 'LIVE' }).length === 5,
      );

      // 10,000 paise - 9,500 leaves 500: under the 5,000 floor; a day passes, and rent is due.
      expect((await server.admin('POST', '/clients/1/wallet', { amount_paise: -9_500 })).status).toBe(200);
      expect((await server.admin('POST', '/clock/advance', { seconds: 86_400 })).status).toBe(200);
      for (let i = 0; i < 8; i++) writeFileSync(join(dir, `second-${i}.png`), randomBytes(2048));

      await until('uploads paused', () => h.engine.state.accountPaused !== null);
      await until('the second batch parked', () => h.engine.listFiles({ state: 'PAUSED' }).length === 8);
      expect(seen[0]).toMatch(/^paused:(LOW-BALANCE|UPLOADS-PAUSED)$/);
      // While paused nothing more goes up (the poll reads /me only).
      await new Promise((r) => setTimeout(r, 400));
      expect((await server.liveFiles('money')).length).toBe(5);

      expect((await server.admin('POST', '/clients/1/wallet', { amount_paise: 20_000 })).status).toBe(200);
      await until('uploads resumed', () => seen.includes('resumed'));
      await until('every file live', () => h.engine.listFiles({ state: 'LIVE' }).length === 13);
      const summary = await h.engine.waitUntilSettled();
      expect(summary.allDone).toBe(true);
      expect((await server.liveFiles('money')).length).toBe(13);
      expect(h.engine.activity().some((a) => a.kind === 'resumed')).toBe(true);
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
