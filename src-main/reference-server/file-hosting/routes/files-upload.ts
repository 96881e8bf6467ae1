import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { URL_UPLOAD_JSON_LIMIT } from '../../http/body-limits';
import { callerOf } from '../auth';
import { failure, type Outcome, sendFailure } from '../failure';
import type { Hosting } from '../hosting';
import { presentFile } from '../present';
import type { FileRow } from '../store/files';
import { checkUploadGate } from '../upload/checks';
import { checkAndStore } from '../upload/commit';
import type { Incoming } from '../upload/incoming';
import { urlBaseName } from '../upload/names';
import { receiveMultipart } from '../upload/receive-multipart';
import { downloadToTemp, parseUrlUpload } from '../upload/receive-url';
import { isPrivateAddress } from '../upload/source-guard';

export async function registerFilesUpload(api: FastifyInstance, hosting: Hosting): Promise<void> {
  await api.register(multipart);
  // Bodies are read by the handler, after the account's gate: JSON as text, anything else not at all.
  api.removeContentTypeParser('application/json');
  api.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: URL_UPLOAD_JSON_LIMIT },
    (_r, body, done) => done(null, body),
  );
  api.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

  api.post('/files', async (request, reply) => {
    const client = callerOf(request);
    const gate = checkUploadGate(client);
    if (gate) return sendFailure(request, reply, gate);
    if (hosting.faults.connectionResets()) {
      // Injected fault: the connection drops mid-request, before anything is stored.
      reply.hijack();
      request.raw.socket.destroy();
      return reply;
    }
    const tempFile = hosting.objects.tempPath();
    let stored: Outcome<FileRow>;
    try {
      const incoming = await receive(request, tempFile, hosting.ctx.options.refusePrivateSources);
      stored = incoming.ok ? await checkAndStore(hosting, client, incoming.value, tempFile) : incoming;
    } finally {
      // Before the reply, so that a client who hears the answer finds no temp file left.
      await hosting.objects.remove({ temp: tempFile });
    }
    if (!stored.ok) return sendFailure(request, reply, stored.failure);
    return reply.code(201).send({ data: presentFile(stored.value, hosting.ctx.cdnUrl) });
  });
}

async function receive(
  request: Parameters<typeof receiveMultipart>[0],
  tempFile: string,
  refusePrivate: boolean,
): Promise<Outcome<Incoming>> {
  if (request.isMultipart()) return receiveMultipart(request, tempFile);
  const type = request.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(type))
    return {
      ok: false,
      failure: failure(
        'VALIDATION',
        `Send multipart/form-data with a "file" field, or application/json with source_url; got ${type ? `"${type}"` : 'no Content-Type'}.`,
      ),
    };
  const parsed = parseUrlUpload(request.body);
  if (!parsed.ok) return parsed;
  const got = await downloadToTemp(parsed.value.url, tempFile, {
    ...(refusePrivate ? { refuseAddress: isPrivateAddress } : {}),
    onFailure: (url, cause) => request.log.info({ source: url, cause }, 'source_url download failed'),
  });
  if (!got.ok) return got;
  const { url, fields } = parsed.value;
  return { ok: true, value: { fields, sourceName: urlBaseName(url), ...got.value } };
}
