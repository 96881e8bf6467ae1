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

/** How long a refused upload may go on sending after the reply before its connection is cut. */
const LINGER_MS = 1000;

/**
 * Sends the failure envelope. When the request body has not been read to its end (an upload refused before
 * its body was read), the reply goes out at once and the rest of the body is read and discarded for a short
 * while ("lingering close"): closing straight away would reset a client that is still sending, and it would
 * see EPIPE instead of the code it must act on. A body cut off at the size limit is the exception: the
 * connection closes after the 413, so that an oversized body is never read to its end.
 */
export function sendFailure(request: FastifyRequest, reply: FastifyReply, f: ApiFailure): FastifyReply {
  const raw = request.raw;
  if (!raw.complete) {
    if (f.code === 'FILE-TOO-LARGE') reply.header('connection', 'close');
    else
      reply.raw.once('finish', () => {
        if (raw.complete || raw.destroyed) return;
        const cut = setTimeout(() => raw.socket?.destroy(), LINGER_MS);
        cut.unref();
        raw.once('end', () => clearTimeout(cut));
        raw.once('close', () => clearTimeout(cut));
        raw.unpipe();
        raw.resume();
      });
  }
  return sendFileApiError(reply, f.code, f.message);
}
