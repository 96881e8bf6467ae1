import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createOfficeBudget } from '../../src-main/core/office/office-budget';
import { createFileApiClient } from '../../src-main/core/service/file-api-client';
import { rateLimiter } from '../../src-main/reference-server/file-hosting/rate-limit';
import { type RunningServer, startReferenceServer } from '../../src-main/reference-server/server';

describe("the reference server's rate-limit modes (a test aid)", () => {
  it('sliding: refused requests are not counted and say when a place frees', () => {
    const l = rateLimiter(2, 'sliding');
    expect(l.take('a', 0)).toEqual({ ok: true });
    expect(l.take('a', 1_000)).toEqual({ ok: true });
    expect(l.take('a', 2_000)).toEqual({ ok: false, retryAfterS: 58 });
    expect(l.take('a', 60_000)).toEqual({ ok: true });
  });

  it('sliding: a window of real time, which a wall clock set back 10 minutes does not stretch (issue 33)', () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    try {
      const l = rateLimiter(2, 'sliding');
      expect(l.take('a')).toEqual({ ok: true });
      expect(l.take('a')).toEqual({ ok: true });
      vi.setSystemTime(Date.now() - 10 * 60_000);
      vi.advanceTimersByTime(1_000);
      expect(l.take('a')).toEqual({ ok: false, retryAfterS: 59 });
      vi.advanceTimersByTime(59_000);
      expect(l.take('a')).toEqual({ ok: true });
    } finally {
      vi.useRealTimers();
    }
  });

  it('fixed-strict: clock minutes, every request counted (refused ones too), no Retry-After', () => {
    const l = rateLimiter(2, 'fixed-strict');
    expect(l.take('a', 60_000)).toEqual({ ok: true });
    expect(l.take('a', 61_000)).toEqual({ ok: true });
    expect(l.take('a', 62_000)).toEqual({ ok: false, retryAfterS: null });
    expect(l.take('b', 62_000)).toEqual({ ok: true });
    // A new minute starts from zero, whatever was refused in the last.
    expect(l.take('a', 120_000)).toEqual({ ok: true });
  });
});

describe('a 429 reaches the budget (rateLimited), with its Retry-After or none', () => {
  const work = mkdtempSync(join(tmpdir(), 'office-429-'));
  let server: RunningServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  for (const mode of ['sliding', 'fixed-strict'] as const) {
    it(`${mode}: the office budget lowers its ceiling and pauses`, async () => {
      server = await startReferenceServer({
        dataDir: join(work, mode),
        ratePerMinute: 2,
        rateLimitMode: mode,
      });
      const budget = createOfficeBudget({ office: false, perMinute: 115 });
      const client = createFileApiClient({
        baseUrl: server.baseUrl,
        apiKey: String(server.demo?.api_key),
        budget,
        retries: 0,
      });
      expect((await client.me()).ok).toBe(true);
      expect((await client.me()).ok).toBe(true);
      const third = await client.me();
      expect(third.ok ? null : third.error.code).toBe('RATE-LIMITED');
      const retryAfter = third.ok ? null : third.error.retryAfterMs;
      if (mode === 'sliding') expect(retryAfter).toBeGreaterThan(0);
      else expect(retryAfter).toBeUndefined();
      // The desk alone cuts under what it really sent (3 in the last minute), but not under its floor of 12
      // a minute (a desk that started late is not starved by desks it cannot see).
      expect(budget.ownCeiling).toBe(12);
      const ac = new AbortController();
      let granted = false;
      void budget.take(ac.signal).then(
        () => {
          granted = true;
        },
        () => {},
      );
      await new Promise((r) => setTimeout(r, 300));
      expect(granted).toBe(false);
      ac.abort();
    });
  }

  it('cleans up', () => {
    rmSync(work, { recursive: true, force: true });
  });
});
