import { invalidBucketMessage, isValidBucket } from '../../../src-shared/domain/bucket';
import { parseCsvLine } from '../../../src-shared/domain/csv';
import { ALLOWED_EXTENSIONS, extensionOf, isAllowedExtension } from '../../../src-shared/domain/extensions';
import { type AppError, appError } from '../../../src-shared/errors';

/** One line of an import list, checked before any request is spent on it. */
export interface ImportLine {
  /** 1-based line number in the file. */
  line: number;
  sourceUrl: string;
  bucket: string | null;
  md5: string | null;
  /** Why no request will be sent for it; null when it is fit to upload. */
  problem: AppError | null;
}

/** What a line says, as one text: a line that already succeeded is known by it on a second run. */
export const lineKey = (l: { sourceUrl: string; bucket: string | null; md5: string | null }): string =>
  `${l.sourceUrl}\u0000${l.bucket ?? ''}\u0000${(l.md5 ?? '').toLowerCase()}`;

const MD5 = /^[0-9a-fA-F]{32}$/;

/** The file's own name in the URL: its last path segment, decoded where it can be. */
function urlFileName(url: URL): string {
  const segment = url.pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Checks one line's cells the way the service would refuse them, so no request is spent on it. */
function check(cells: string[]): {
  sourceUrl: string;
  bucket: string | null;
  md5: string | null;
  problem: AppError | null;
} {
  const [rawUrl = '', rawBucket = '', rawMd5 = '', ...extra] = cells.map((c) => c.trim());
  const bucket = rawBucket === '' ? null : rawBucket;
  const md5 = rawMd5 === '' ? null : rawMd5;
  const base = { sourceUrl: rawUrl, bucket, md5 };
  if (extra.some((c) => c !== ''))
    return {
      ...base,
      problem: appError(
        'VALIDATION',
        `A line holds at most 3 cells (source_url,bucket,md5); this one has ${cells.length}.`,
      ),
    };
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return {
      ...base,
      problem: appError('URL-INVALID', `"${rawUrl}" is not a full URL (http://... or https://...).`),
    };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return {
      ...base,
      problem: appError('URL-INVALID', `The service downloads only http and https URLs, not ${url.protocol}`),
    };
  const ext = extensionOf(urlFileName(url));
  if (!isAllowedExtension(ext))
    return {
      ...base,
      problem: appError(
        'EXTENSION-NOT-ALLOWED',
        ext === ''
          ? 'The URL\'s path must end in a file name with an allowed extension (".pdf", ".png", ...).'
          : `".${ext}" is not an allowed extension (${ALLOWED_EXTENSIONS.join(', ')}).`,
      ),
    };
  if (bucket !== null && !isValidBucket(bucket))
    return {
      ...base,
      problem: appError('BUCKET-INVALID', invalidBucketMessage(bucket)),
    };
  if (md5 !== null && !MD5.test(md5))
    return {
      ...base,
      problem: appError('VALIDATION', `"${md5}" is not an md5 (32 hexadecimal characters).`),
    };
  return { ...base, problem: null };
}

/**
 * The lines of an import list: a text file of URLs, or a CSV of `source_url[,bucket[,md5]]`, with or
 * without a header line naming `source_url`. Blank lines and lines starting with `#` are not lines
 * to import (they get no result row); every other line gets one, checked or not.
 */
export function parseImportList(text: string): ImportLine[] {
  const out: ImportLine[] = [];
  const rows = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  rows.forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === '' || raw.trimStart().startsWith('#')) return;
    const cells = parseCsvLine(raw);
    if (cells === null) {
      out.push({
        line,
        sourceUrl: raw.trim(),
        bucket: null,
        md5: null,
        problem: appError('VALIDATION', 'A quote is left open on this line.'),
      });
      return;
    }
    if (out.length === 0 && cells[0]?.trim().toLowerCase() === 'source_url') return;
    out.push({ line, ...check(cells) });
  });
  return out;
}
