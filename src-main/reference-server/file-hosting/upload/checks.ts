import { BUCKET_PATTERN } from '../../../../src-shared/domain/bucket';
import { extensionOf, isAllowedExtension, mimeForExtension } from '../../../../src-shared/domain/extensions';
import { MIN_BALANCE_TO_UPLOAD_PAISE } from '../../../../src-shared/domain/limits';
import { formatRupees } from '../../../../src-shared/domain/money';
import { type ApiFailure, failure } from '../failure';
import type { ClientRow } from '../store/clients';
import { cleanDisplayName, shortened, urlSafeName } from './names';

/** The optional fields of both upload forms, as sent. */
export interface UploadFields {
  bucket?: string;
  name?: string;
  hash?: string;
}

export const NAME_MAX_CHARS = 255;
const MD5 = /^[0-9a-fA-F]{32}$/;

/** The account's gate, checked before any byte is read: arrears first, then the floor. */
export function checkUploadGate(client: ClientRow): ApiFailure | null {
  if (client.arrears_paise > 0)
    return failure(
      'UPLOADS-PAUSED',
      `Uploads are paused: ${formatRupees(client.arrears_paise)} of storage rent is unpaid. Top up the wallet to cover it; reads and deletes keep working.`,
    );
  if (client.balance_paise < MIN_BALANCE_TO_UPLOAD_PAISE)
    return failure(
      'LOW-BALANCE',
      `The wallet holds ${formatRupees(client.balance_paise)}; uploads need at least ${formatRupees(MIN_BALANCE_TO_UPLOAD_PAISE)}. Top it up.`,
    );
  return null;
}

/** Field checks that need no bytes: VALIDATION (malformed hash or name), then BUCKET-INVALID. */
export function checkFields(fields: UploadFields): ApiFailure | null {
  if (fields.hash !== undefined && !MD5.test(fields.hash))
    return failure('VALIDATION', 'hash must be the md5 of the bytes: 32 hexadecimal characters.');
  if (fields.name !== undefined && [...fields.name].length > NAME_MAX_CHARS)
    return failure('VALIDATION', `name is longer than ${NAME_MAX_CHARS} characters.`);
  if (fields.bucket !== undefined && !BUCKET_PATTERN.test(fields.bucket))
    return failure(
      'BUCKET-INVALID',
      `Bucket ${JSON.stringify(fields.bucket)} does not match [a-z0-9][a-z0-9.-]{0,49} (lower-case letters, digits, dots, dashes; 50 at most).`,
    );
  return null;
}

export interface ResolvedNames {
  displayName: string;
  urlName: string;
  extension: string;
  mime: string;
}

/**
 * Where the name parts come from: the extension (and the CDN file name) from the file's own name (the part's
 * filename, or the URL's last segment); when that has no extension, from the `name` field. The display name is
 * `name` when sent, else the file's own name.
 */
export function resolveNames(sourceName: string, nameField: string | undefined): ApiFailure | ResolvedNames {
  // A `name` sent over the limit is refused (checkFields); the file's own name (a part's filename, a
  // URL's last segment) was not chosen as a name, so it is shortened to the limit, extension kept.
  const display =
    cleanDisplayName(nameField ?? '') || shortened(cleanDisplayName(sourceName), NAME_MAX_CHARS);
  const fromSource = extensionOf(sourceName) !== '';
  const base = fromSource ? sourceName : (nameField ?? '');
  const extension = extensionOf(base);
  if (!isAllowedExtension(extension))
    return failure(
      'EXTENSION-NOT-ALLOWED',
      extension === ''
        ? `The file ${JSON.stringify(display)} has no extension; use one of the allowed extensions (GET /me pricing.allowed_extensions).`
        : `Extension "${extension}" is not allowed; see GET /me pricing.allowed_extensions.`,
    );
  if (display === '')
    return failure('VALIDATION', 'The file has no name: send a filename or the name field.');
  return { displayName: display, urlName: urlSafeName(base), extension, mime: mimeForExtension(extension) };
}

/**
 * Checks an extension as soon as the file part starts, when it is already decided: a part filename with an
 * extension settles it; otherwise a `name` field may still follow the bytes.
 */
export function checkExtensionEarly(sourceName: string, nameField: string | undefined): ApiFailure | null {
  if (extensionOf(sourceName) === '' && nameField === undefined) return null;
  const names = resolveNames(sourceName, nameField);
  return 'code' in names && names.code === 'EXTENSION-NOT-ALLOWED' ? names : null;
}

/** Checks on the received bytes: empty is refused like too large, then the md5 when one was sent. */
export function checkBytes(size: number, md5: string, hash: string | undefined): ApiFailure | null {
  if (size === 0) return failure('FILE-TOO-LARGE', 'The file is empty; an upload needs at least one byte.');
  if (hash !== undefined && hash.toLowerCase() !== md5)
    return failure(
      'HASH-MISMATCH',
      `The md5 of the received bytes is ${md5}, not ${hash}; nothing was stored.`,
    );
  return null;
}
