import { describe, expect, it } from 'vitest';
import { totalsByOutcome, unpaidNow } from '../../src-renderer/views/usage/usage-totals';
import { failureSentence } from '../../src-shared/domain/failure-text';
import { lowBalanceSentence } from '../../src-shared/domain/wallet-text';

const at = (ms: number) => `T${ms}`;
const sentences = (text: string) => text.split(/[.!?](\s|$)/).filter((s) => s.trim()).length;

describe('one sentence per failure, what happened and what happens next', () => {
  it('a storage fault with a retry time: the server’s "Retry the upload" is not repeated', () => {
    const text = failureSentence(
      {
        code: 'STORAGE-FAILED',
        reason:
          'The service could not store the bytes; nothing was saved. The object store refused the bytes; nothing was saved. Retry the upload.',
        nextRetryAt: 5,
      },
      at,
    );
    expect(text).toBe(
      'The service could not store the file and kept nothing; it is retried automatically at T5.',
    );
    expect(sentences(text)).toBe(1);
  });

  it('no retry left: the action to take', () => {
    const text = failureSentence(
      { code: 'GONE', reason: 'No such file on this account.', nextRetryAt: null },
      at,
    );
    expect(text).toBe(
      'No such file on this account; it is not retried by itself: press Retry once the cause is fixed.',
    );
  });
});

describe('the low-balance banner', () => {
  it('speaks rupees, once, with what to do', () => {
    expect(lowBalanceSentence(0, 5000)).toBe(
      'The wallet holds ₹0.00; uploads need ₹50.00. Top up to resume.',
    );
    expect(lowBalanceSentence(123_456, 5000)).toContain('₹1,234.56');
  });
});

describe('usage totals', () => {
  const day = (outcome: string, rent_paise: number) => ({
    usage_date: '2026-11-2x',
    bytes_used: 1,
    files_count: 1,
    rent_paise,
    outcome,
  });
  it('are kept per outcome, never all called charged', () => {
    expect(totalsByOutcome([day('ARREARS', 2), day('CHARGED', 1), day('ARREARS', 3)])).toEqual([
      { outcome: 'CHARGED', days: 1, paise: 1 },
      { outcome: 'ARREARS', days: 2, paise: 5 },
    ]);
  });

  it("Usage's unpaid line is today's arrears from /me, not the days billed to arrears", () => {
    const totals = totalsByOutcome([day('ARREARS', 3), day('ARREARS', 5)]);
    expect(unpaidNow(2, totals)).toBe('₹0.02 unpaid now');
    // Paid by a top-up: the days were billed to arrears, nothing is unpaid now.
    expect(unpaidNow(0, totals)).toBe('nothing unpaid now');
    expect(unpaidNow(0, totalsByOutcome([day('CHARGED', 1)]))).toBeNull();
    expect(unpaidNow(null, totals)).toBeNull();
  });
});
