import type { FileApiErrorCode } from '../../../src-shared/api/file-hosting';
import { BUCKET_RULE_MESSAGE } from '../../../src-shared/domain/bucket';
import type { AppError } from '../../../src-shared/errors';

/** What the caller does about a failure; one reaction per code (docs/service-client.md). */
export type Reaction = 'retry' | 'pause' | 'auth' | 'closed' | 'reject' | 'rehash';

export interface ApiError extends AppError {
  /** The API's code (FileApiErrorCode), or NETWORK | TIMEOUT | ABORTED | BAD-REPLY | FILE-CHANGED | HTTP-<status>. */
  code: string;
  status?: number;
  retryAfterMs?: number;
  reaction: Reaction;
}

/** Codes the client itself produces, beside the API's own. */
export type LocalErrorCode = 'NETWORK' | 'TIMEOUT' | 'ABORTED' | 'BAD-REPLY' | 'FILE-CHANGED';

// What a person can do about each code; the server's own `errors` text is appended where it says more.
const ADVICE: Record<FileApiErrorCode | LocalErrorCode, string> = {
  UNAUTHENTICATED: 'The API key was refused (missing, malformed or revoked). Log in again with a valid key.',
  'CLIENT-CLOSED': 'The account is closed and its files were deleted. Contact the service to reopen it.',
  'UPLOADS-PAUSED': 'Uploads are paused: storage rent is unpaid. Top up the wallet to cover the arrears.',
  'LOW-BALANCE': 'The wallet holds less than the upload floor. Top up the wallet to upload again.',
  VALIDATION: 'The service refused a parameter.',
  'HASH-MISMATCH': 'The bytes received did not match their md5 (the file may have changed while uploading).',
  'SOURCE-UNREACHABLE':
    'The service could not download the source URL (it must answer HTTP 200 with the file).',
  'BUCKET-INVALID': BUCKET_RULE_MESSAGE,
  'FILE-TOO-LARGE': 'The file is empty or larger than the per-file ceiling.',
  'EXTENSION-NOT-ALLOWED': 'The file extension is not on the allow-list.',
  'STORAGE-FAILED': 'The service could not store the bytes; nothing was saved.',
  GONE: 'No such file on this account (deleted, purged, or never yours).',
  'RATE-LIMITED': 'Too many requests; waiting until the service allows more.',
  NETWORK: 'The service could not be reached.',
  TIMEOUT: 'The service did not answer in time.',
  ABORTED: 'The request was cancelled.',
  'BAD-REPLY': 'The service sent a reply this app cannot read.',
  'FILE-CHANGED': 'The file changed on disk while it was being sent; it will be read again.',
};

/** Codes whose detail from the service is the whole sentence (it names the source and the rule). */
const SAID_BY_THE_SERVICE = new Set(['SOURCE-UNREACHABLE']);

/** The one reaction for a code and status: the table of docs/service-client.md. */
export function reactionFor(code: string, status?: number): Reaction {
  if (code === 'HASH-MISMATCH' || code === 'FILE-CHANGED') return 'rehash';
  if (code === 'NETWORK' || code === 'TIMEOUT' || code === 'ABORTED') return 'retry';
  if (code === 'UNAUTHENTICATED' || status === 401) return 'auth';
  if (code === 'CLIENT-CLOSED' || status === 403) return 'closed';
  if (code === 'UPLOADS-PAUSED' || code === 'LOW-BALANCE' || status === 402) return 'pause';
  if (code === 'RATE-LIMITED' || status === 429) return 'retry';
  if (status === undefined || status >= 500) return 'retry';
  // 2xx with an unreadable body, 410, 413, 415, 422 and any other 4xx: sending the same again will not help.
  return 'reject';
}

export function apiError(
  code: string,
  detail: string | undefined,
  extra: { status?: number; retryAfterMs?: number } = {},
): ApiError {
  const advice = (ADVICE as Record<string, string | undefined>)[code];
  const base = advice ?? `The service answered HTTP ${extra.status ?? '?'} (${code}).`;
  // Where the service's own sentence names the URL and says the same as ours, ours is left out: an
  // import's failure read "could not download the source URL (it must answer HTTP 200 …) <url> could not
  // be downloaded: it must answer HTTP 200 …" (issue 34).
  const message =
    detail && SAID_BY_THE_SERVICE.has(code)
      ? detail.trim()
      : detail && detail !== base
        ? `${base} ${detail}`.trim()
        : base;
  return {
    code,
    message,
    reaction: reactionFor(code, extra.status),
    ...(extra.status !== undefined ? { status: extra.status } : {}),
    ...(extra.retryAfterMs !== undefined ? { retryAfterMs: extra.retryAfterMs } : {}),
  };
}

/** Thrown only from async iterables (which cannot return a Result); carries the ApiError. */
export class ApiFailure extends Error {
  constructor(readonly error: ApiError) {
    super(`${error.code}: ${error.message}`);
    this.name = 'ApiFailure';
  }
}
