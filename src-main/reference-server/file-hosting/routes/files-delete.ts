import type { FastifyInstance } from 'fastify';
import { callerOf } from '../auth';
import { failure, sendFailure } from '../failure';
import type { Hosting } from '../hosting';
import { fileIdParam } from './query';

export function registerFilesDelete(api: FastifyInstance, hosting: Hosting): void {
  api.delete('/files/:id', async (request, reply) => {
    const client = callerOf(request);
    const id = fileIdParam((request.params as { id: string }).id);
    if ('code' in id) return sendFailure(request, reply, id);
    const row = hosting.files.get(client.id, id.value);
    if (!row)
      return sendFailure(request, reply, failure('GONE', `File ${id.text} does not exist for this account.`));
    if (hosting.files.markDeleted(client.id, row.id, hosting.ctx.clock.now())) {
      // The row says DELETED first, so the CDN stops serving at once even if removing the bytes fails.
      await hosting.objects.remove({ key: row.object_key }).catch((error: unknown) => {
        request.log.warn({ err: error, key: row.object_key }, 'could not remove a deleted object');
      });
    }
    return reply.code(202).send({ data: { id: row.id, status: 'DELETED' } });
  });
}
