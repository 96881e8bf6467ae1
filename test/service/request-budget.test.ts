import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  budgetFor,
  createRequestBudget,
  DEFAULT_FILE_API_PER_MINUTE,
  type Lane,
} from '../../src-main/core/service/request-budget';
import { FILE_API_REQUESTS_PER_MINUTE } from '../../src-shared/domain/limits';

// Unit tests on an injected clock: vitest's fake timers drive both Date.now and setTimeout.
beforeEach(() => {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Starts n takes at once and records the clock at each grant. */
function grantTimes(budget: ReturnType<typeof createRequestBudget>, n: number): number[] {
  const times: number[] = [];
  for (let i = 0; i < n; i++) void budget.take().then(() => times.push(Date.now()));
  return times;
}

function maxInWindow(times: number[], windowMs: number): number {
  let max = 0;
  let lo = 0;
  for (let hi = 0; hi < times.length; hi++) {
    while (times[hi]! - times[lo]! >= windowMs) lo++;
    max = Math.max(max, hi - lo + 1);
  }
  return max;
}

describe('request budget (sliding window)', () => {
  it('grants the whole allowance at once, then each place again a minute after it was used', async () => {
    const budget = createRequestBudget({ perMinute: 3, now: Date.now });
    const start = Date.now();
    const times = grantTimes(budget, 5);
    await vi.advanceTimersByTimeAsync(0);
    expect(times.length).toBe(3);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(times.length).toBe(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(times.map((t) => t - start)).toEqual([0, 0, 0, 60_000, 60_000]);
  });

  it('at the file API default a long run never puts more than the service allows in any minute, and uses it', async () => {
    const budget = createRequestBudget({ perMinute: DEFAULT_FILE_API_PER_MINUTE, now: Date.now });
    const start = Date.now();
    const times = grantTimes(budget, 240);
    await vi.advanceTimersByTimeAsync(4 * 60_000);
    expect(times.length).toBe(240);
    expect(maxInWindow(times, 60_000)).toBe(DEFAULT_FILE_API_PER_MINUTE);
    expect(DEFAULT_FILE_API_PER_MINUTE).toBeLessThan(FILE_API_REQUESTS_PER_MINUTE);
    // 240 requests take two minutes and a little: the floor the service's limit allows.
    expect(times.at(-1)! - start).toBeLessThanOrEqual(120_000);
    // The KB API: 55/min stays under the entry API's 60/min.
    const kb = createRequestBudget({ perMinute: 55, now: Date.now });
    const kbTimes = grantTimes(kb, 150);
    await vi.advanceTimersByTimeAsync(3 * 60_000);
    expect(maxInWindow(kbTimes, 60_000)).toBeLessThanOrEqual(55);
  });

  it('requests taken one at a time over a minute free their places one at a time', async () => {
    const budget = createRequestBudget({ perMinute: 2, now: Date.now });
    const start = Date.now();
    await budget.take();
    await vi.advanceTimersByTimeAsync(30_000);
    await budget.take();
    const times = grantTimes(budget, 2);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(times.map((t) => t - start)).toEqual([60_000, 90_000]);
  });

  it('deferUntil (a 429 Retry-After) holds everyone until then, and resumes at the steady rate, not in a burst', async () => {
    const budget = createRequestBudget({ perMinute: 120, now: Date.now });
    const start = Date.now();
    budget.deferUntil(start + 10_000);
    const times = grantTimes(budget, 3);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(times).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_600);
    // The service's window is taken as full at the deadline: one place frees each 500 ms after it.
    expect(times.map((t) => t - start)).toEqual([10_500, 11_000, 11_500]);
    // An earlier deadline never shortens a later one.
    budget.deferUntil(start + 5_000);
    budget.deferUntil(Date.now() + 2_000);
    const later = grantTimes(budget, 1);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(later.length).toBe(0);
    await vi.advanceTimersByTimeAsync(600);
    expect(later.length).toBe(1);
  });

  it('0 per minute is unlimited, yet still honours Retry-After', async () => {
    const budget = createRequestBudget({ perMinute: 0, now: Date.now });
    const times = grantTimes(budget, 1_000);
    await vi.advanceTimersByTimeAsync(0);
    expect(times.length).toBe(1_000);
    budget.deferUntil(Date.now() + 3_000);
    const held = grantTimes(budget, 10);
    await vi.advanceTimersByTimeAsync(2_999);
    expect(held.length).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(held.length).toBe(10);
  });

  it('an aborted wait rejects and gives its place to the next caller', async () => {
    const budget = createRequestBudget({ perMinute: 1, now: Date.now });
    await budget.take();
    const controller = new AbortController();
    const aborted = budget.take(controller.signal);
    const next = grantTimes(budget, 1);
    expect(budget.waiting).toBe(2);
    controller.abort(new Error('user cancelled'));
    await expect(aborted).rejects.toThrow('user cancelled');
    expect(budget.waiting).toBe(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(next.length).toBe(1);
    await expect(budget.take(AbortSignal.abort(new Error('already')))).rejects.toThrow('already');
  });

  it('configure changes the rate of a shared budget in place', async () => {
    const a = budgetFor('http://127.0.0.1:9/x', 'files');
    const b = budgetFor('http://127.0.0.1:9/', 'files');
    expect(a).toBe(b);
    expect(a.perMinute).toBe(DEFAULT_FILE_API_PER_MINUTE);
    expect(budgetFor('http://127.0.0.1:9', 'kb').perMinute).toBe(55);
    expect(budgetFor('http://127.0.0.1:10', 'files')).not.toBe(a);
    budgetFor('http://127.0.0.1:9', 'files', { perMinute: 0 });
    expect(a.perMinute).toBe(0);
    const times = grantTimes(a, 50);
    await vi.advanceTimersByTimeAsync(0);
    expect(times.length).toBe(50);
    expect(() => a.configure({ perMinute: -1 })).toThrow(RangeError);
  });
});

describe('request budget lanes', () => {
  /** Starts takes in one lane and records the clock at each grant, tagged with the lane. */
  function laneTakes(
    budget: ReturnType<typeof createRequestBudget>,
    lane: Lane,
    n: number,
    log: { lane: Lane; at: number }[],
  ): void {
    for (let i = 0; i < n; i++)
      void budget.take(undefined, lane).then(() => log.push({ lane, at: Date.now() }));
  }

  it('a waiting higher lane always goes first, whatever the order of arrival', async () => {
    const budget = createRequestBudget({ perMinute: 4, now: Date.now });
    const start = Date.now();
    for (let i = 0; i < 4; i++) await budget.take(undefined, 'sync');
    const log: { lane: Lane; at: number }[] = [];
    laneTakes(budget, 'background', 2, log);
    laneTakes(budget, 'user', 2, log);
    laneTakes(budget, 'sync', 2, log);
    expect([budget.waitingIn('sync'), budget.waitingIn('user'), budget.waitingIn('background')]).toEqual([
      2, 2, 2,
    ]);
    await vi.advanceTimersByTimeAsync(60_000);
    // Four places free at once a minute later: sync's two, then user's two; background waits a window.
    expect(log.map((g) => g.lane)).toEqual(['sync', 'sync', 'user', 'user']);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(log.map((g) => g.lane)).toEqual(['sync', 'sync', 'user', 'user', 'background']);
    expect(log.every((g) => g.at - start >= 60_000)).toBe(true);
  });

  it('background never holds more than its share of a window, even alone', async () => {
    const budget = createRequestBudget({ perMinute: 100, now: Date.now });
    expect(budget.backgroundShare).toBe(0.05);
    const log: { lane: Lane; at: number }[] = [];
    laneTakes(budget, 'background', 20, log);
    await vi.advanceTimersByTimeAsync(0);
    expect(log.length).toBe(5);
    expect(budget.grantedIn('background')).toBe(5);
    // The rest of the window is free for uploads and user actions at once.
    laneTakes(budget, 'sync', 95, log);
    await vi.advanceTimersByTimeAsync(0);
    expect(log.filter((g) => g.lane === 'sync').length).toBe(95);
    await vi.advanceTimersByTimeAsync(3 * 60_000);
    expect(log.filter((g) => g.lane === 'background').length).toBe(20);
    const bg = log.filter((g) => g.lane === 'background').map((g) => g.at);
    expect(maxInWindow(bg, 60_000)).toBe(5);
  });

  it('a tiny budget still lets background through, one request per window', async () => {
    const budget = createRequestBudget({ perMinute: 3, now: Date.now });
    const log: { lane: Lane; at: number }[] = [];
    laneTakes(budget, 'background', 3, log);
    await vi.advanceTimersByTimeAsync(0);
    expect(log.length).toBe(1);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(log.length).toBe(3);
  });

  it('an upload batch beside a background walk finishes in the windows it needs alone', async () => {
    const perMinute = 55;
    const batch = 100; // alone: 55 in the first window, 45 in the second
    const run = async (withWalk: boolean) => {
      const budget = createRequestBudget({ perMinute, now: Date.now });
      const start = Date.now();
      const log: { lane: Lane; at: number }[] = [];
      let walking = withWalk;
      // The walk asks for one page at a time, forever, as a real walk does.
      const walk = async () => {
        while (walking) {
          await budget.take(undefined, 'background');
          log.push({ lane: 'background', at: Date.now() });
        }
      };
      const walker = walk();
      // Uploads, four at a time, each taking 300 ms after its grant: there are gaps the walk could use.
      let next = 0;
      const worker = async () => {
        while (next < batch) {
          next++;
          await budget.take(undefined, 'sync');
          log.push({ lane: 'sync', at: Date.now() });
          await new Promise((r) => setTimeout(r, 300));
        }
      };
      const uploads = Promise.all([worker(), worker(), worker(), worker()]);
      await vi.advanceTimersByTimeAsync(5 * 60_000);
      await uploads;
      walking = false;
      await vi.advanceTimersByTimeAsync(2 * 60_000);
      await walker;
      const lastUpload = Math.max(...log.filter((g) => g.lane === 'sync').map((g) => g.at));
      return { windows: Math.floor((lastUpload - start) / 60_000) + 1, log };
    };
    const alone = await run(false);
    const beside = await run(true);
    expect(alone.windows).toBe(2);
    expect(beside.windows).toBe(alone.windows);
    // The walk did make progress, within its share.
    const walkGrants = beside.log.filter((g) => g.lane === 'background').map((g) => g.at);
    expect(walkGrants.length).toBeGreaterThan(2);
    expect(maxInWindow(walkGrants, 60_000)).toBeLessThanOrEqual(Math.floor(perMinute * 0.05));
  });

  it('an aborted background wait leaves the lanes in order; the share can be configured', async () => {
    const budget = createRequestBudget({ perMinute: 20, backgroundShare: 0.5, now: Date.now });
    const log: { lane: Lane; at: number }[] = [];
    laneTakes(budget, 'background', 15, log);
    await vi.advanceTimersByTimeAsync(0);
    expect(log.length).toBe(10);
    budget.configure({ perMinute: 20, backgroundShare: 0.25 });
    const controller = new AbortController();
    const aborted = budget.take(controller.signal, 'background');
    controller.abort(new Error('stop'));
    await expect(aborted).rejects.toThrow('stop');
    expect(budget.waitingIn('background')).toBe(5);
    expect(() => budget.configure({ perMinute: 20, backgroundShare: 0 })).toThrow(RangeError);
    expect(() => createRequestBudget({ perMinute: 20, backgroundShare: 1.5 })).toThrow(RangeError);
  });

  it('unlimited (0 per minute) still grants in lane order', async () => {
    const budget = createRequestBudget({ perMinute: 0, now: Date.now });
    budget.deferUntil(Date.now() + 1_000);
    const log: { lane: Lane; at: number }[] = [];
    laneTakes(budget, 'background', 2, log);
    laneTakes(budget, 'sync', 2, log);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(log.map((g) => g.lane)).toEqual(['sync', 'sync', 'background', 'background']);
  });
});

describe('request budget across a step of the wall clock (issue 33)', () => {
  // vitest's fake timers move the wall clock (Date) and the monotonic one (performance) together;
  // setSystemTime moves the wall clock alone, as NTP after a sleep does.
  it.each([
    ['back 10 minutes', -10 * 60_000],
    ['forward an hour', 60 * 60_000],
  ])(
    'the window runs on the monotonic clock: a step %s neither holds the next request nor frees the window early',
    async (_, step) => {
      const budget = createRequestBudget({ perMinute: 3 });
      const times = grantTimes(budget, 3);
      await vi.advanceTimersByTimeAsync(0);
      expect(times.length).toBe(3);
      vi.setSystemTime(Date.now() + step);
      let next = false;
      void budget.take().then(() => {
        next = true;
      });
      // The window is full: the 4th waits a minute of monotonic time, whatever the wall clock did.
      await vi.advanceTimersByTimeAsync(59_000);
      expect(next).toBe(false);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(next).toBe(true);
    },
  );
});
