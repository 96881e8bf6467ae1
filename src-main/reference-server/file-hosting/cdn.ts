import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Hosting } from './hosting';
import { resolveRange } from './range';

/**
 * The CDN: `GET|HEAD /storage/<client_id>/<bucket>/<stamp>-<filename>` serves a live file's bytes from this
 * server. A deleted file, or any file of a closed client, is no longer served (404). Caches must revalidate
 * (ETag), so a deletion is never hidden behind a cached copy.
 */
export function registerCdn(app: FastifyInstance, hosting: Hosting): void {
  app.route({
    method: ['GET', 'HEAD'],
    url: '/storage/:clientId/:bucket/:file',
    exposeHeadRoute: false,
    handler: async (request, reply) => {
      const { clientId, bucket, file } = request.params as { clientId: string; bucket: string; file: string };
      const row = /^\d+$/.test(clientId) ? hosting.files.servable(Number(clientId), bucket, file) : undefined;
      if (!row) return reply.code(404).type('text/plain').send('Not found');
      const etag = `"${row.hash}"`;
      reply.header('etag', etag).header('accept-ranges', 'bytes').header('cache-control', 'no-cache');
      reply.header('content-type', row.mime);
      if (request.headers['if-none-match']?.split(/\s*,\s*/).includes(etag)) return reply.code(304).send();

      const range = resolveRange(request.headers.range, row.size_bytes);
      if (range.kind === 'unsatisfiable')
        return reply
          .code(416)
          .header('content-range', `bytes */${row.size_bytes}`)
          .type('text/plain')
          .send('Range not satisfiable');
      const [status, start, end] =
        range.kind === 'part' ? [206, range.start, range.end] : [200, 0, row.size_bytes - 1];
      if (status === 206) reply.header('content-range', `bytes ${start}-${end}/${row.size_bytes}`);
      reply.code(status).header('content-length', String(end - start + 1));
      if (request.method === 'HEAD') return reply.send();
      return reply.send(createReadStream(hosting.objects.pathOf(row.object_key), { start, end }));
    },
  });
}
