import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHolder, type GrantOut } from '../../src-main/core/office/holder';

// The holder alone, on vitest's fake clock (its pacing timers and Date.now).
beforeEach(() => {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

function holder() {
  const grants: GrantOut[] = [];
  const h = createHolder({ max: 115, now: () => Date.now(), send: (g) => grants.push(g) });
  return { h, grants };
}

const idle = { now: 0, sync: 0, bg: 0 };

describe("the holder's window counts what the service counts", () => {
  it("a new holder counts each desk's last minute, a desk killed a moment ago too, until it is a minute old", () => {
    const { h } = holder();
    const t = Date.now();
    h.members(['a', 'b']);
    h.seed([
      { id: 'a', used: 40, at: t },
      // Killed 2 s ago: its 50 requests stay in the service's window until they are a minute old.
      { id: 'gone', used: 50, at: t - 2_000 },
    ]);
    // Spread over the minute before each said so: 40 of a's, 49 of the gone desk's still inside the window.
    expect(h.counted).toBe(89);
    vi.advanceTimersByTime(30_000);
    expect(h.counted).toBeGreaterThanOrEqual(42);
    expect(h.counted).toBeLessThanOrEqual(46);
    vi.advanceTimersByTime(30_000);
    expect(h.counted).toBe(0);
    h.close();
  });

  it("a desk's last minute is spread from its start, not over a minute it did not live (the office's first seconds)", () => {
    const { h } = holder();
    const t = Date.now();
    h.members(['a', 'b']);
    // Both started 2 s ago and sent their first burst since: the service counts all 30 until about t + 58 s.
    h.seed([
      { id: 'a', used: 20, at: t, since: t - 2_000 },
      { id: 'b', used: 10, at: t, since: t - 2_000 },
    ]);
    expect(h.counted).toBe(30);
    vi.advanceTimersByTime(50_000);
    expect(h.counted).toBe(30);
    vi.advanceTimersByTime(10_000);
    expect(h.counted).toBe(0);
    h.close();
  });

  it('counts what a desk says it sent beyond its places (on its own word), and grants only the room left', () => {
    const { h, grants } = holder();
    h.members(['a', 'b']);
    // b sent 112 on its own word while no holder answered: the window has 3 places left of 115.
    h.heard('b', 112, idle);
    expect(h.counted).toBe(112);
    h.ask('a', { now: 0, sync: 4, bg: 0 }, 0);
    vi.advanceTimersByTime(20_000);
    expect(grants.reduce((n, g) => n + g.n, 0)).toBe(3);
    h.close();
  });

  it('a desk that leaves still has what it sent on its own word in the window, each until a minute old, by when its heartbeats said it', () => {
    const { h } = holder();
    h.members(['a', 'b']);
    // b's heartbeats: 10 sent by t, 20 by t + 20 s, 30 by t + 40 s, all on its own word (no place of this holder).
    h.heard('b', 10, idle);
    vi.advanceTimersByTime(20_000);
    h.heard('b', 20, idle);
    vi.advanceTimersByTime(20_000);
    h.heard('b', 30, idle);
    expect(h.counted).toBe(30);
    // b says bye: the service still counts each of its 30 requests until it is a minute old.
    h.members(['a']);
    expect(h.counted).toBe(30);
    vi.advanceTimersByTime(19_000); // t + 59 s: none a minute old yet
    expect(h.counted).toBe(30);
    vi.advanceTimersByTime(2_000); // t + 61 s: the first 10 have left
    expect(h.counted).toBe(20);
    // Spread over the minute before the bye instead, half of the last 20 (sent at t + 20 and t + 40 s) was
    // freed by now: the office granted into a window the service still held full (bench:office once-12).
    vi.advanceTimersByTime(20_000); // t + 81 s
    expect(h.counted).toBe(10);
    vi.advanceTimersByTime(20_000); // t + 101 s
    expect(h.counted).toBe(0);
    h.close();
  });

  it('places granted to a desk since its last heartbeat count on top of what it said, not inside it', () => {
    const { h, grants } = holder();
    h.members(['a', 'b']);
    // b sent 100 on its own word (no place of this holder), then asks for places every second; its next
    // heartbeats are late (a stalled process). Each place granted meanwhile is one more request for the service.
    h.heard('b', 100, idle);
    for (let s = 0; s < 20; s++) {
      h.ask('b', { now: 0, sync: 4, bg: 0 }, 0);
      vi.advanceTimersByTime(1_000);
    }
    // Counted inside its word (the larger of its places and its word), b got places up to 115 of its own.
    expect(grants.reduce((n, g) => n + g.n, 0)).toBe(15);
    expect(h.counted).toBe(115);
    h.close();
  });

  it('shares by what each desk has in the window, its own word included, and between equals by the longest wait', () => {
    const { h, grants } = holder();
    h.members(['a', 'b', 'c']);
    // b sent 6 on its own word (the holder was slow): it is 6 ahead of a and c, not 6 behind.
    h.heard('b', 6, idle);
    for (let s = 0; s < 30; s++) {
      for (const id of ['a', 'b', 'c']) h.ask(id, { now: 0, sync: 4, bg: 0 }, 0);
      vi.advanceTimersByTime(300);
    }
    const to = (id: string) => grants.filter((g) => g.to === id).reduce((n, g) => n + g.n, 0);
    // a and c catch up with b's 6 first, then the three take turns: within one place of each other.
    const total = to('a') + to('b') + to('c');
    expect(total).toBeGreaterThan(18);
    expect(Math.abs(to('a') - to('c'))).toBeLessThanOrEqual(1);
    expect(Math.abs(to('a') - (to('b') + 6))).toBeLessThanOrEqual(1);
    h.close();
  });

  it("a peer's word counts at most the maximum: a peer that claims everything costs no more than no office", () => {
    const { h } = holder();
    h.members(['a', 'b']);
    h.heard('b', 100_000, idle);
    expect(h.counted).toBe(115);
    h.close();
  });

  it('a 429 cuts the ceiling under what the office had in the window, not under the ceiling', () => {
    const { h } = holder();
    h.members(['a', 'b']);
    h.heard('b', 60, idle);
    h.limited('a', 1_000, false);
    expect(h.ceiling).toBe(Math.floor(0.9 * 60));
    h.close();
  });
});
