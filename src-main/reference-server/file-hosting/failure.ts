import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FileApiErrorCode } from '../../../src-shared/api/file-hosting';
import { sendFileApiError } from '../http/envelopes';

/** A refused request as a value: the API's code and a message a person can act on. */
export interface ApiFailure {
  readonly code: FileApiErrorCode;
  readonly message: string;
}

export const failure = (code: FileApiErrorCode, message: string): ApiFailure => ({ code, message });

export type Outcome<T> = { ok: true; value: T } | { ok: false; failure: ApiFailure };

/**
 * Sends the failure envelope. When the request body has not been read to its end (an upload refused early or
 * cut off at the size limit), the connection is closed after the reply instead of reading the rest.
 */
export function sendFailure(request: FastifyRequest, reply: FastifyReply, f: ApiFailure): FastifyReply {
  if (!request.raw.complete) reply.header('connection', 'close');
  return sendFileApiError(reply, f.code, f.message);
}
