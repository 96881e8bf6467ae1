import { afterEach, describe, expect, it } from 'vitest';
import { admin, api, appWithBot, byTitle, kbServerFixture, must, type TestApp } from './helpers';

/**
 * The wall clock steps under a running KB sync (issue 33): back 10 minutes (NTP after a sleep, a dual-boot
 * machine) or forward an hour. The undo window of a delete and the retry after a 429 run on a steady time
 * (service/clock.ts `steadyWall`): the window neither ends at once nor lasts the step, and the retry comes
 * when the service said, not ten minutes later.
 */
const BACK = -10 * 60_000;
const FORWARD = 60 * 60_000;

/** A wall clock a test steps, on the real one; the monotonic clock is the real one. */
function steppedClock() {
  const c = {
    offset: 0,
    now: () => Date.now() + c.offset,
    monotonic: () => performance.now(),
  };
  return c;
}

describe('a step of the wall clock under the KB sync', () => {
  const w = kbServerFixture('kb-clock-steps-');
  let app: TestApp | null = null;
  afterEach(async () => {
    await app?.close();
    app = null;
  });
  const titles = async (token: string): Promise<string[]> =>
    ((await api(w.server.baseUrl, token, 'GET')).json.entries as { title: string }[]).map((e) => e.title);

  it.each([
    ['back 10 minutes', BACK],
    ['forward an hour', FORWARD],
  ])('a step %s: the undo window neither ends at once nor lasts the step', async (_, step) => {
    const clock = steppedClock();
    const made = await appWithBot(w, { undoMs: 3_000, file: `undo${step}.sqlite`, clock });
    app = made.app;
    const { token, botId } = made;
    must(app.kb.create(botId, { title: 'Hours', description: '9 to 6' }));
    await app.kb.syncNow(botId);
    app.kb.start();
    expect(await titles(token)).toEqual(['Hours']);

    must(app.kb.remove(byTitle(app, botId, 'Hours')!.id));
    clock.offset += step;
    // Still inside its window: a round now does not send it, and the app still offers the undo, counted
    // down on the wall clock as it reads now.
    await app.kb.syncNow(botId);
    expect(await titles(token)).toEqual(['Hours']);
    const undoUntil = byTitle(app, botId, 'Hours')?.undoUntil ?? null;
    expect(undoUntil).not.toBeNull();
    expect(undoUntil! - clock.now()).toBeGreaterThan(0);
    expect(undoUntil! - clock.now()).toBeLessThanOrEqual(3_000);
    // And it ends: the round at the window's end sends the delete by itself.
    await expect.poll(() => titles(token), { timeout: 20_000, interval: 200 }).toEqual([]);
  });

  it.each([
    ['back 10 minutes', BACK],
    ['forward an hour', FORWARD],
  ])('a step %s just after a 429: the next round comes when the service said', async (_, step) => {
    const clock = steppedClock();
    let stepped = false;
    const made = await appWithBot(w, {
      file: `retry${step}.sqlite`,
      clock,
      // The step lands between the 429 and the round's end, where the retry time is read.
      onRateLimited: () => {
        if (!stepped) clock.offset += step;
        stepped = true;
      },
    });
    app = made.app;
    const { token, botId } = made;
    await admin(w.server, 'PUT', '/kb/faults', { rate_limited_seconds: 2 });
    app.kb.start();
    must(app.kb.create(botId, { title: 'Returns', description: '30 days' }));
    await expect.poll(() => stepped, { timeout: 10_000, interval: 50 }).toBe(true);
    const bot = () => app!.kb.snapshot(botId);
    // What a person sees: retrying in seconds on the wall clock as it reads now, not in ten minutes.
    await expect
      .poll(
        () => {
          const s = bot();
          return s.ok ? s.value.bot.sync.nextAttemptAt : null;
        },
        { timeout: 10_000, interval: 50 },
      )
      .not.toBeNull();
    const s = bot();
    expect(s.ok && s.value.bot.sync.nextAttemptAt! - clock.now()).toBeLessThan(60_000);
    await expect.poll(() => titles(token), { timeout: 30_000, interval: 200 }).toEqual(['Returns']);
  });
});
