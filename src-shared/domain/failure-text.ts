/**
 * The one place that words a file's failure for a person: one sentence, what happened and what
 * happens next (an automatic retry at a time, or the action to take). The core stores only what
 * happened (the row's reason); what happens next is read from the row when it is shown, so it is
 * never stale and never said twice.
 */

/** What happened, in words of our own, for the codes whose server text also says what to do next. */
const WHAT_HAPPENED: Record<string, string> = {
  'STORAGE-FAILED': 'The service could not store the file and kept nothing',
  NETWORK: 'The service could not be reached',
  TIMEOUT: 'The service did not answer in time',
  'RATE-LIMITED': 'The service asked for fewer requests',
  'BAD-REPLY': 'The service sent a reply this app cannot read',
  'HASH-MISMATCH': 'The bytes the service received did not match the file, even after reading it again',
};

export interface FailureFacts {
  code: string;
  /** The stored reason (what happened; the server's own words may follow ours). */
  reason: string;
  /** Epoch ms of the next automatic retry, or null when there is none. */
  nextRetryAt: number | null;
}

/** "The service could not store the file and kept nothing; it is retried automatically at 20:31:05." */
export function failureSentence(f: FailureFacts, timeOf: (epochMs: number) => string): string {
  const what = WHAT_HAPPENED[f.code] ?? (f.reason.trim().replace(/[.\s]+$/, '') || `It failed (${f.code})`);
  const next =
    f.nextRetryAt !== null
      ? `it is retried automatically at ${timeOf(f.nextRetryAt)}`
      : 'it is not retried by itself: press Retry once the cause is fixed';
  return `${what}; ${next}.`;
}
