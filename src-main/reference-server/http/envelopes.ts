import type { FastifyReply } from 'fastify';
import { FILE_API_ERROR_STATUS, type FileApiErrorCode } from '../../../src-shared/api/file-hosting';

/** The file-hosting API's failure envelope: `data` null, `errors`, `code`. */
export function sendFileApiError(
  reply: FastifyReply,
  code: FileApiErrorCode,
  errors: string | string[],
  status = FILE_API_ERROR_STATUS[code],
): FastifyReply {
  return reply.code(status).send({ data: null, errors: Array.isArray(errors) ? errors : [errors], code });
}

/** The knowledge-entry API's failure shape: `{ok: false, error}`. */
export function sendKbError(reply: FastifyReply, status: number, error: string): FastifyReply {
  return reply.code(status).send({ ok: false, error });
}

/** The admin surface's failure shape. */
export function sendAdminError(reply: FastifyReply, status: number, error: string): FastifyReply {
  return reply.code(status).send({ error });
}

export type Surface = 'files' | 'kb' | 'admin' | 'cdn' | 'other';

export function surfaceOf(url: string): Surface {
  if (url.startsWith('/api/assets/')) return 'files';
  if (url.startsWith('/api/mebot/')) return 'kb';
  if (url.startsWith('/__admin/')) return 'admin';
  if (url.startsWith('/storage/')) return 'cdn';
  return 'other';
}
