import { type AppError, appError, err, type Result } from '../../../src-shared/errors';

export const notConnected = (): Result<never, AppError> =>
  err(appError('NOT-CONNECTED', 'Choose the local sandbox or connect an account first.'));

/** Drops the client-side fields (reaction, retryAfterMs) that are not part of the contract's AppError. */
export const plainError = (e: AppError): AppError => ({
  code: e.code,
  message: e.message,
  ...(e.status !== undefined ? { status: e.status } : {}),
  ...(e.retryAt !== undefined ? { retryAt: e.retryAt } : {}),
});
