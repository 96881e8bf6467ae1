import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Attempt, createPacer, done, type PacerBudget, retry } from '../../src-main/core/service/pacer';
import { createRequestBudget } from '../../src-main/core/service/request-budget';
import { backoffDelayMs } from '../../src-main/core/service/retry-policy';
import { fakeClock } from '../sync/fake-clock';

// The pacer on a fake clock: nothing here waits on the wall clock. Sleeps resolve when the test moves
// the clock; the request budget's own timers run on vitest's fake timers.

const POLICY = { baseMs: 1_000, capMs: 8_000, maxAttempts: 4 };
const always = (x: string) => async () => retry(x);

describe('pacer', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts attempts, sleeps the policy between them, and gives up with the last value', async () => {
    const clock = fakeClock();
    const pacer = createPacer({ policy: POLICY, clock, random: () => 1 });
    const seen: number[] = [];
    let result: string | undefined;
    void pacer
      .call(async (attempt) => {
        seen.push(attempt);
        return retry(`failed ${attempt}`);
      })
      .then((v) => {
        result = v;
      });
    await clock.advance(0);
    expect(seen).toEqual([1]);
    // 1 s, 2 s, 4 s: backoffDelayMs of attempts 1, 2, 3 (no sleep after the last).
    await clock.advance(999);
    expect(seen).toEqual([1]);
    await clock.advance(1);
    expect(seen).toEqual([1, 2]);
    await clock.advance(2_000);
    expect(seen).toEqual([1, 2, 3]);
    await clock.advance(4_000);
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(result).toBe('failed 4');
    expect(clock.pending()).toBe(0);
    expect(pacer.delayMs(3)).toBe(backoffDelayMs(3, POLICY, undefined, () => 1));
  });

  it('done ends the loop at once', async () => {
    const clock = fakeClock();
    const pacer = createPacer({ policy: POLICY, clock, random: () => 0 });
    let calls = 0;
    const p = pacer.call(async (attempt): Promise<Attempt<number>> => {
      calls++;
      return attempt === 2 ? done(42) : retry(0);
    });
    await clock.advance(1_000);
    expect(await p).toBe(42);
    expect(calls).toBe(2);
    expect(clock.pending()).toBe(0);
  });

  it('an abort during a sleep rejects at once with its reason, and nothing more is tried', async () => {
    const clock = fakeClock();
    const pacer = createPacer({ policy: POLICY, clock });
    const controller = new AbortController();
    let calls = 0;
    const p = pacer.call(
      async () => {
        calls++;
        return retry('x');
      },
      { signal: controller.signal },
    );
    const settled = p.then(
      () => 'resolved',
      (e: unknown) => e,
    );
    await clock.advance(0);
    expect(clock.pending()).toBe(1);
    const reason = new Error('stopped');
    controller.abort(reason);
    // Settled without the clock moving: the sleep ended with the abort.
    expect(await settled).toBe(reason);
    expect(clock.pending()).toBe(0);
    expect(calls).toBe(1);
    // Already aborted: no attempt at all.
    await expect(pacer.call(always('y'), { signal: controller.signal })).rejects.toBe(reason);
    expect(calls).toBe(1);
  });

  it("the server's Retry-After wins over a shorter backoff", async () => {
    const clock = fakeClock();
    const pacer = createPacer({ policy: POLICY, clock, random: () => 1 });
    const seen: number[] = [];
    const p = pacer.call(async (attempt) => {
      seen.push(attempt);
      return attempt === 1 ? retry('busy', { retryAfterMs: 30_000 }) : done('ok');
    });
    await clock.advance(29_999);
    expect(seen).toEqual([1]);
    await clock.advance(1);
    expect(await p).toBe('ok');
    expect(seen).toEqual([1, 2]);
  });

  it('a 429 tells the budget once; the next attempt waits for its token, which the budget holds until Retry-After', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const budget = createRequestBudget({ perMinute: 60, now: Date.now });
    const told = vi.spyOn(budget, 'rateLimited');
    const clock = fakeClock();
    const pacer = createPacer({ policy: POLICY, clock, budget: () => budget });
    const start = Date.now();
    const at: number[] = [];
    const p = pacer.call(
      async (attempt) => {
        at.push(Date.now() - start);
        return attempt === 1 ? retry('429', { rateLimited: true, retryAfterMs: 10_000 }) : done('sent');
      },
      { lane: 'sync' },
    );
    await vi.advanceTimersByTimeAsync(9_999);
    expect(at).toEqual([0]);
    expect(told).toHaveBeenCalledTimes(1);
    expect(told).toHaveBeenCalledWith(10_000);
    // No sleep of its own beside the budget's hold: the request keeps its place in its lane.
    expect(clock.pending()).toBe(0);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await p).toBe('sent');
    expect(at[1]).toBeGreaterThanOrEqual(10_000);
    expect(told).toHaveBeenCalledTimes(1);

    // One attempt only (an upload): the 429 is still told, once.
    const once = pacer.call(async () => retry('429', { rateLimited: true }), { maxAttempts: 1 });
    // After a 429 the window counts as full: places free one a second (60 a minute).
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await once).toBe('429');
    expect(told).toHaveBeenCalledTimes(2);
    expect(told).toHaveBeenLastCalledWith(undefined);
    expect(clock.pending()).toBe(0);
  });

  it('asks for its budget on every attempt, so a budget leased from elsewhere replaces the local one', async () => {
    const calls: string[] = [];
    const leased = (name: string): PacerBudget => ({
      take: async (_signal, lane) => {
        calls.push(`${name} take ${lane}`);
      },
      rateLimited: (ms) => {
        calls.push(`${name} 429 ${ms}`);
      },
    });
    let current = leased('local');
    const clock = fakeClock();
    const pacer = createPacer({ policy: POLICY, clock, budget: () => current });
    const p = pacer.call(
      async (attempt) => {
        if (attempt === 1) {
          current = leased('lease');
          return retry('429', { rateLimited: true, retryAfterMs: 5_000 });
        }
        return done('ok');
      },
      { lane: 'background' },
    );
    expect(await p).toBe('ok');
    expect(calls).toEqual(['local take background', 'local 429 5000', 'lease take background']);
  });

  it('without a budget (a loop around a client that takes its own) a 429 is a wait, told to no one', async () => {
    const clock = fakeClock();
    const pacer = createPacer({ policy: POLICY, clock, random: () => 0 });
    const p = pacer.call(async (attempt) =>
      attempt === 1 ? retry('429', { rateLimited: true, retryAfterMs: 3_000 }) : done('ok'),
    );
    await clock.advance(0);
    expect(clock.pending()).toBe(1);
    await clock.advance(3_000);
    expect(await p).toBe('ok');
  });

  it('what fn throws is not retried', async () => {
    const pacer = createPacer({ policy: POLICY, clock: fakeClock() });
    let calls = 0;
    await expect(
      pacer.call(async () => {
        calls++;
        throw new Error('bug');
      }),
    ).rejects.toThrow('bug');
    expect(calls).toBe(1);
  });
});
