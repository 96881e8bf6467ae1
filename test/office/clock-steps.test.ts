import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ids, memoryLink } from './link';

/**
 * The wall clock steps under a running office (issue 33). vitest's fake timers drive the wall clock (Date)
 * and the monotonic one (performance) together; `setSystemTime` moves the wall clock alone, as NTP after
 * a sleep does. Liveness, leases, pauses and terms run on the monotonic clock, and the holder is the desk
 * up longest by each desk's own monotonic clock: no step and no disagreement between machines' clocks
 * moves it.
 */
beforeEach(() => {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

async function threeDesks(o: { wallOf3?: () => number } = {}) {
  const link = memoryLink();
  const t0 = Date.now();
  const a = await link.desk({ id: ids(1), startedAt: t0 - 3_000 });
  const b = await link.desk({ id: ids(2), startedAt: t0 - 2_000 });
  const c = await link.desk({
    id: ids(3),
    startedAt: t0 - 1_000,
    ...(o.wallOf3 ? { wallNow: o.wallOf3 } : {}),
  });
  await vi.advanceTimersByTimeAsync(2_000);
  return { link, a, b, c };
}

describe('a step of the wall clock under a running office', () => {
  it.each([
    ['back 10 minutes', -10 * 60_000],
    ['forward an hour', 60 * 60_000],
  ])('a step %s: the same holder, every desk alive, and the next request goes at once', async (_, step) => {
    const { a, b, c } = await threeDesks();
    expect(a.desk.role().kind).toBe('holder');
    const term = (a.desk.role() as { term: number }).term;
    vi.setSystemTime(Date.now() + step);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(a.desk.role()).toMatchObject({ kind: 'holder', term, desks: 3 });
    for (const d of [b, c]) expect(d.desk.role()).toMatchObject({ kind: 'follower', holderId: ids(1), term });
    // The next request of a follower: granted by the holder within a heartbeat or two, not after the step.
    let sent = false;
    void c.budget.take(undefined, 'sync').then(() => {
      sent = true;
    });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(sent).toBe(true);
  });

  it("the holder is the desk up longest, whatever the machines' wall clocks say of their starts", async () => {
    // Desk 3 started last, on a machine whose clock is an hour behind: by its wall-clock start it would hold.
    const { a, b, c } = await threeDesks({ wallOf3: () => Date.now() - 60 * 60_000 });
    for (const d of [a, b, c]) expect(d.desk.role()).toMatchObject({ holderId: ids(1), desks: 3 });
  });
});
