import { describe, expect, it } from 'vitest';
import {
  backoffDelayMs,
  CALL_BACKOFF,
  parseRetryAfter,
  SYNC_BACKOFF,
} from '../../src-main/core/service/retry-policy';

describe('retry policy', () => {
  it('reads Retry-After as delay-seconds or as an HTTP-date', () => {
    const now = Date.parse('2026-11-23T10:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 1.5 ', now)).toBe(1_500);
    expect(parseRetryAfter(['7', '9'], now)).toBe(7_000);
    expect(parseRetryAfter('Mon, 23 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    // A date already past means "now", never a negative wait.
    expect(parseRetryAfter('Mon, 23 Nov 2026 09:00:00 GMT', now)).toBe(0);
  });

  it('leaves unreadable Retry-After to the caller default', () => {
    for (const bad of [undefined, '', '  ', 'soon', '-5', '1e3', '12abc']) {
      expect(parseRetryAfter(bad)).toBeUndefined();
    }
  });

  it('grows exponentially with equal jitter, capped, and Retry-After wins when longer', () => {
    const low = () => 0;
    const high = () => 1;
    expect(backoffDelayMs(1, SYNC_BACKOFF, undefined, low)).toBe(1_000);
    expect(backoffDelayMs(1, SYNC_BACKOFF, undefined, high)).toBe(2_000);
    expect(backoffDelayMs(3, SYNC_BACKOFF, undefined, high)).toBe(8_000);
    expect(backoffDelayMs(30, SYNC_BACKOFF, undefined, high)).toBe(SYNC_BACKOFF.capMs);
    expect(backoffDelayMs(1, CALL_BACKOFF, 20_000, high)).toBe(20_000);
    expect(backoffDelayMs(5, CALL_BACKOFF, 100, high)).toBe(8_000);
  });
});
