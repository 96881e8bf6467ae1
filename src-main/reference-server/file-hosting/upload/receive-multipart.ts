import type { FastifyRequest } from 'fastify';
import { MAX_FILE_BYTES } from '../../../../src-shared/domain/limits';
import { failure, type Outcome } from '../failure';
import { checkExtensionEarly, checkFields, type UploadFields } from './checks';
import type { Incoming } from './incoming';
import { receiveToTemp } from './receive-stream';

/** Room for the boundaries and the small fields around a file at the ceiling. */
const MULTIPART_OVERHEAD = 1024 * 1024;
const FIELD_MAX_BYTES = 16 * 1024;
const KNOWN_FIELDS = new Set<keyof UploadFields>(['bucket', 'name', 'hash']);

const tooLarge = () =>
  failure('FILE-TOO-LARGE', `The file is larger than the per-file ceiling of ${MAX_FILE_BYTES} bytes.`);

/**
 * Reads a multipart upload: the `file` part is streamed to `tempFile`; fields may come before or after it.
 * What can be refused before the bytes (a declared size over the ceiling, fields sent before the file, a
 * filename's extension) is refused before they are read.
 */
export async function receiveMultipart(
  request: FastifyRequest,
  tempFile: string,
): Promise<Outcome<Incoming>> {
  const declared = Number(request.headers['content-length']);
  if (declared > MAX_FILE_BYTES + MULTIPART_OVERHEAD) return { ok: false, failure: tooLarge() };

  const fields: UploadFields = {};
  let file: { sourceName: string; size: number; md5: string } | null = null;
  try {
    const parts = request.parts({
      preservePath: true,
      // One byte over the ceiling reaches our own counter, which stops the stream.
      limits: { fileSize: MAX_FILE_BYTES + 1, fieldSize: FIELD_MAX_BYTES, fields: 20, parts: 25 },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        const name = part.fieldname;
        if (name === 'file')
          return fail('The file field must be a file part (with a filename), not a plain form value.');
        if (name === 'source_url')
          return fail('source_url is the JSON form of upload: send it as application/json, not multipart.');
        if (!KNOWN_FIELDS.has(name as keyof UploadFields)) continue;
        if (part.valueTruncated) return fail(`The ${name} field is longer than ${FIELD_MAX_BYTES} bytes.`);
        const key = name as keyof UploadFields;
        if (fields[key] !== undefined) return fail(`The ${name} field was sent twice.`);
        fields[key] = String(part.value);
        continue;
      }
      if (part.fieldname !== 'file')
        return fail(`The file must be sent in the field "file", not "${part.fieldname}".`);
      if (file) return fail('Send exactly one file per upload; this request has two file fields.');
      const early = checkFields(fields) ?? checkExtensionEarly(part.filename ?? '', fields.name);
      if (early) return { ok: false, failure: early };
      const got = await receiveToTemp(part.file, tempFile, MAX_FILE_BYTES);
      if (got.kind === 'too-large') return { ok: false, failure: tooLarge() };
      if (got.kind === 'store-failed')
        return {
          ok: false,
          failure: failure(
            'STORAGE-FAILED',
            'The bytes could not be written to storage; nothing was saved. Retry.',
          ),
        };
      if (got.kind === 'source-failed') return fail('The multipart body ended before the file did.');
      file = { sourceName: part.filename ?? '', size: got.size, md5: got.md5 };
    }
  } catch (error) {
    request.log.debug({ err: error }, 'multipart body refused');
    return fail('The multipart body is malformed or was cut short.');
  }
  if (!file)
    return fail('No file: send the bytes in a multipart field named "file", or a JSON body with source_url.');
  return { ok: true, value: { fields, ...file } };
}

function fail(message: string): Outcome<never> {
  return { ok: false, failure: failure('VALIDATION', message) };
}
