import type { FastifyInstance } from 'fastify';
import { BUCKET_PATTERN } from '../../../../src-shared/domain/bucket';
import { PER_PAGE_DEFAULT, PER_PAGE_MAX } from '../../../../src-shared/domain/limits';
import { callerOf } from '../auth';
import { failure, sendFailure } from '../failure';
import type { Hosting } from '../hosting';
import { presentFile } from '../present';
import { fileIdParam, intParam } from './query';

export function registerFilesRead(api: FastifyInstance, hosting: Hosting): void {
  api.get('/files', async (request, reply) => {
    const client = callerOf(request);
    const query = request.query as Record<string, unknown>;
    const perPage = intParam(query, 'per_page', {
      default: PER_PAGE_DEFAULT,
      min: 1,
      max: PER_PAGE_MAX,
      outOfRange: 'clamp',
    });
    if ('code' in perPage) return sendFailure(request, reply, perPage);
    const page = intParam(query, 'page', {
      default: 1,
      min: 1,
      max: Number.MAX_SAFE_INTEGER,
      outOfRange: 'clamp',
    });
    if ('code' in page) return sendFailure(request, reply, page);
    const bucket = query.bucket;
    if (bucket !== undefined && (typeof bucket !== 'string' || !BUCKET_PATTERN.test(bucket)))
      return sendFailure(
        request,
        reply,
        failure(
          'BUCKET-INVALID',
          `bucket must match [a-z0-9][a-z0-9.-]{0,49}, got ${JSON.stringify(bucket)}.`,
        ),
      );
    const total = hosting.files.countLive(client.id, bucket);
    const lastPage = Math.max(1, Math.ceil(total / perPage.value));
    const rows =
      page.value > lastPage
        ? []
        : hosting.files.pageLive(client.id, bucket, perPage.value, (page.value - 1) * perPage.value);
    const cdnUrl = hosting.ctx.cdnUrl;
    return {
      data: rows.map((row) => presentFile(row, cdnUrl)),
      meta: { page: page.value, per_page: perPage.value, total, last_page: lastPage },
    };
  });

  api.get('/files/:id', async (request, reply) => {
    const client = callerOf(request);
    const id = fileIdParam((request.params as { id: string }).id);
    if ('code' in id) return sendFailure(request, reply, id);
    const row = hosting.files.get(client.id, id.value);
    if (row?.status !== 'ACTIVE')
      return sendFailure(
        request,
        reply,
        failure('GONE', `File ${id.text} does not exist for this account (deleted, purged or never yours).`),
      );
    return { data: presentFile(row, hosting.ctx.cdnUrl) };
  });
}
