import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backoffDelayMs, pausePollBackoff } from '../../src-main/core/service/retry-policy';
import { DEFAULT_OPTIONS } from '../../src-main/core/sync/context';
import { fakeClock } from './fake-clock';
import { countingClient, makeEngine, type SyncTestServer, startServer, tempDir, until } from './helpers';

let server: SyncTestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

describe('while paused for money, /me is read at most every 10 s however long the pause lasts', () => {
  it('the cadence: about 2 s, 4 s, 8 s, then 5 to 10 s (jittered), for a day', () => {
    const max = DEFAULT_OPTIONS.pausePollMs;
    expect(max).toBe(10_000);
    let elapsed = 0;
    let attempt = 0;
    const waits: number[] = [];
    while (elapsed < 86_400_000) {
      const wait = backoffDelayMs(++attempt, pausePollBackoff(max));
      waits.push(wait);
      elapsed += wait;
    }
    // Never longer than 10 s apart, so a top-up is seen within 10 s after a day as after a minute.
    expect(Math.max(...waits)).toBeLessThanOrEqual(10_000);
    expect(Math.min(...waits.slice(4))).toBeGreaterThanOrEqual(5_000);
    // At most 12 a minute, about 8 on average: inside the file API's 115 a minute.
    expect(waits.length / (elapsed / 60_000)).toBeLessThan(9);
  });

  /**
   * The engine's poll waits on its clock: an hour of pause passes on a fake one, each poll a real /me
   * to a real server. A top-up after that hour is seen within 10 s (it was up to a minute: the next
   * poll of the old doubling cadence was that far).
   */
  it.each([10, 150, 3_600])(
    'after %i s paused, uploads resume within 10 s of a top-up',
    async (pausedFor) => {
      const dir = tempDir();
      const clock = fakeClock(Date.now());
      const counting = countingClient(server.baseUrl, server.demoKey);
      const h = makeEngine(counting.client, { clock, pausePollMs: DEFAULT_OPTIONS.pausePollMs });
      let resumedAt: number | null = null;
      h.engine.on('resumed', () => {
        resumedAt = clock.now();
      });
      try {
        for (let i = 0; i < 3; i++) writeFileSync(join(dir, `f-${i}.png`), randomBytes(1024));
        // Under the upload floor: /me at start says so, and the engine pauses before any upload.
        expect((await server.admin('POST', '/clients/1/wallet', { amount_paise: -9_500 })).status).toBe(200);
        await h.engine.start();
        expect((await h.engine.addFolder({ path: dir, bucket: 'cadence' })).ok).toBe(true);
        await until('paused', () => h.engine.state.accountPaused !== null);
        const start = clock.now();
        const step = async () => {
          // The poll waits on the clock again (or the pause is over): then a second passes.
          await until('the next poll waiting on the clock', () => clock.pending() > 0 || resumedAt !== null);
          await clock.advance(1_000);
        };
        const mesBefore = counting.count('GET', '/me');
        while (clock.now() - start < pausedFor * 1_000) await step();
        const polls = counting.count('GET', '/me') - mesBefore;
        // At most one read every 5 s after the first three (jittered between 5 and 10 s).
        expect(polls).toBeLessThanOrEqual(Math.ceil(pausedFor / 5) + 3);
        expect(h.engine.state.accountPaused).not.toBeNull();

        expect((await server.admin('POST', '/clients/1/wallet', { amount_paise: 9_500 })).status).toBe(200);
        const toppedUpAt = clock.now();
        while (resumedAt === null && clock.now() - toppedUpAt <= 60_000) await step();
        expect(resumedAt).not.toBeNull();
        const seconds = ((resumedAt ?? 0) - toppedUpAt) / 1_000;
        console.log(
          `paused ${pausedFor} s (fake clock): resumed ${seconds} s after the top-up, ${polls} /me`,
        );
        expect(seconds).toBeLessThanOrEqual(10);
        await until('every file live', () => h.engine.listFiles({ state: 'LIVE' }).length === 3);
      } finally {
        await h.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
