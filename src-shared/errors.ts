/**
 * Errors are values: a machine code (the API's own code where there is one) and a message a person
 * can act on. Secrets never go into either.
 */
export interface AppError {
  readonly code: string;
  readonly message: string;
  /** Seconds or a time to retry at, when the reaction is "retry later". */
  readonly retryAt?: number;
  readonly status?: number;
  /** The request field a VALIDATION error is about (`bwlimit`): a form shows the message beside it. */
  readonly field?: string;
}

export type Result<T, E = AppError> = { ok: true; value: T } | { ok: false; error: E };

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const err = <E = AppError>(error: E): Result<never, E> => ({ ok: false, error });

export function appError(code: string, message: string, extra: Partial<AppError> = {}): AppError {
  return { code, message, ...extra };
}
