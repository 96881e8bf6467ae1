import { randomBytes } from 'node:crypto';
import { failure, type Outcome } from '../failure';
import type { Hosting } from '../hosting';
import type { ClientRow } from '../store/clients';
import type { FileRow } from '../store/files';
import { checkBytes, checkFields, resolveNames } from './checks';
import type { Incoming } from './incoming';

/**
 * The last checks on a received upload (in order: fields, extension, size, md5), then the store: the temp
 * file becomes an object and the row is written. Any refusal leaves no object and no row; the caller removes
 * the temp file.
 */
export async function checkAndStore(
  hosting: Hosting,
  client: ClientRow,
  incoming: Incoming,
  tempFile: string,
): Promise<Outcome<FileRow>> {
  const refused = checkFields(incoming.fields);
  if (refused) return { ok: false, failure: refused };
  const names = resolveNames(incoming.sourceName, incoming.fields.name);
  if ('code' in names) return { ok: false, failure: names };
  const bytes = checkBytes(incoming.size, incoming.md5, incoming.fields.hash);
  if (bytes) return { ok: false, failure: bytes };

  const storageFailed = failure(
    'STORAGE-FAILED',
    'The object store refused the bytes; nothing was saved. Retry the upload.',
  );
  if (hosting.faults.storageFails()) return { ok: false, failure: storageFailed };

  const now = hosting.ctx.clock.now();
  const key = hosting.objects.newKey(client.id);
  const row = {
    client_id: client.id,
    bucket: incoming.fields.bucket ?? client.default_bucket,
    name: names.displayName,
    // The stamp keeps two uploads of one name apart: creation time plus a little randomness.
    url_name: `${now.toString(36)}${randomBytes(2).toString('hex')}-${names.urlName}`,
    object_key: key,
    extension: names.extension,
    mime: names.mime,
    size_bytes: incoming.size,
    hash: incoming.md5,
    created_at: now,
  };
  try {
    await hosting.objects.commit(tempFile, key);
  } catch (error) {
    hosting.ctx.log.warn({ err: error }, 'object commit failed');
    return { ok: false, failure: storageFailed };
  }
  try {
    const id = hosting.files.insert(row);
    return { ok: true, value: { ...row, id, status: 'ACTIVE', deleted_at: null } };
  } catch (error) {
    hosting.ctx.log.warn({ err: error }, 'file row insert failed');
    await hosting.objects.remove({ key });
    return { ok: false, failure: storageFailed };
  }
}
