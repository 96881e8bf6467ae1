import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { JSON_BODY_LIMIT, URL_UPLOAD_JSON_LIMIT } from './body-limits';
import { sendAdminError, sendFileApiError, sendKbError, surfaceOf } from './envelopes';

/**
 * Bad input never answers 500 and never crashes: parse errors, wrong content types, oversized JSON
 * and malformed paths become each surface's own 4xx shape; anything unexpected is logged and
 * answered as a retryable failure, with nothing stored. Also Fastify's `frameworkErrors` (a path
 * it cannot decode is refused before any route or hook runs).
 */
export function answerError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const surface = surfaceOf(request.url);
  const status = error.statusCode ?? 500;
  const known = status >= 400 && status < 500;
  if (!known) request.log.error({ err: error }, 'unexpected error');
  const message = known
    ? describeClientError(error)
    : 'The server could not complete the request; nothing was stored. Retry.';
  if (surface === 'files') {
    // A JSON body over its limit is a malformed request, not a file: FILE-TOO-LARGE is for files.
    if (status === 413 && error.code !== 'FST_ERR_CTP_BODY_TOO_LARGE')
      return sendFileApiError(
        reply,
        'FILE-TOO-LARGE',
        'The request body is larger than the per-file ceiling.',
      );
    if (status === 429) return sendFileApiError(reply, 'RATE-LIMITED', message);
    return known
      ? sendFileApiError(reply, 'VALIDATION', message, 422)
      : sendFileApiError(reply, 'STORAGE-FAILED', message);
  }
  if (surface === 'kb') return sendKbError(reply, known ? (status === 429 ? 429 : 422) : 503, message);
  return sendAdminError(reply, known ? (status === 404 ? 404 : 400) : 503, message);
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(answerError);

  app.setNotFoundHandler((request, reply) => {
    const surface = surfaceOf(request.url);
    // The file-hosting API never answers 404 (section 1): anything unknown there is GONE.
    if (surface === 'files')
      return sendFileApiError(reply, 'GONE', `No such resource: ${request.method} ${pathOnly(request.url)}`);
    if (surface === 'kb')
      return sendKbError(reply, 404, `No such endpoint: ${request.method} ${pathOnly(request.url)}`);
    if (surface === 'cdn') return reply.code(404).type('text/plain').send('Not found');
    return sendAdminError(reply, 404, `No such endpoint: ${request.method} ${pathOnly(request.url)}`);
  });
}

function pathOnly(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

function describeClientError(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The body is not valid JSON.';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return `Unsupported Content-Type; send application/json${''} or multipart/form-data.`;
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'The Content-Length header does not match the body.';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return `The JSON body is too large: at most ${kib(URL_UPLOAD_JSON_LIMIT)} for an upload by URL (a file itself goes as multipart/form-data), ${kib(JSON_BODY_LIMIT)} elsewhere.`;
    case 'FST_ERR_BAD_URL':
      return 'The request path has a malformed percent-escape (% must be followed by two hex digits that form UTF-8).';
    default:
      return error.message;
  }
}

const kib = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`;
