import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from './fake-clock';
import { makeEngine, type SyncTestServer, startServer, tempDir, testClient } from './helpers';

/**
 * The wall clock steps under a running engine (issue 33): its stored waits (a new file's stability
 * window, a retry time) are wall-clock times in SQLite, its timers run on the monotonic clock. The fake
 * clock moves the two apart (`stepWall`), as NTP after a sleep does.
 */
let server: SyncTestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

describe('a step of the wall clock under a running engine', () => {
  it.each([
    ['back 10 minutes', -10 * 60_000],
    ['forward an hour', 60 * 60_000],
  ])(
    'a step %s while a file waits out its stability window: it is sent when the window ends on the monotonic clock',
    async (_, step) => {
      const dir = tempDir();
      writeFileSync(join(dir, 'a.png'), randomBytes(1024));
      const clock = fakeClock(Date.now());
      const h = makeEngine(testClient(server.baseUrl, server.demoKey), { clock, stabilityMs: 5_000 });
      try {
        await h.engine.start();
        expect((await h.engine.addFolder({ path: dir, bucket: `step${step}` })).ok).toBe(true);
        await clock.advance(0);
        expect(h.engine.listFiles().map((f) => f.state)).toEqual(['NEW']);
        clock.stepWall(step);
        // 20 s of the engine's (monotonic) clock, in steps: the 5 s window ends within them whatever the
        // wall clock did (a file whose mtime is now ahead of the clock waits one window more, prepare.ts);
        // a window held by the step would need 10 minutes more.
        for (let i = 0; i < 200 && h.engine.listFiles()[0]?.state !== 'LIVE'; i++) {
          await clock.advance(100);
          await new Promise((r) => setTimeout(r, 5));
        }
        expect(h.engine.listFiles().map((f) => f.state)).toEqual(['LIVE']);
        expect((await server.liveFiles(`step${step}`)).map((f) => f.name)).toEqual(['a.png']);
      } finally {
        await h.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
