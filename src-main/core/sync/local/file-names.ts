import { isUtf8 } from 'node:buffer';
import { type Inspection, READ_FAILURES } from './inspect';

/**
 * Names that are not valid UTF-8 (`caf\xe9.txt` from a Latin-1 archive). The service's names are JSON
 * strings, so such a file cannot be sent under its own name; it is SKIPPED `NAME-NOT-UTF8`, shown and
 * counted, under a display name that keeps every byte (docs/sync-engine.md, "Names that are not UTF-8").
 */
export const NAME_NOT_UTF8 = 'NAME-NOT-UTF8';

/**
 * Skip codes of a file that was found and is not synced for a cause the person must see to on this
 * machine: bytes that could not be read, or a name the service cannot take. `sync --once` names each,
 * exits 3 on them, and does not call the folder in sync (docs/sync-engine.md).
 */
export const FOUND_NOT_SYNCED: readonly string[] = [...READ_FAILURES, NAME_NOT_UTF8];

/** rclone's quote rune (lib/encoder: EncodeInvalidUtf8): each invalid byte becomes ‛ and two hex digits. */
const QUOTE = '\u201b';

/**
 * The display name of a path given as bytes, as rclone's encoder writes it: each byte that is not
 * part of a valid UTF-8 sequence becomes `‛XX` (`caf\xe9.txt` -> `caf‛E9.txt`), and a `‛` of the name
 * itself becomes `‛‛`, so no two byte names of that kind share a display name. A valid name is
 * returned as it is.
 */
export function displayName(bytes: Uint8Array): string {
  if (isUtf8(bytes)) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const n = sequenceLength(bytes, i);
    if (n === 0) {
      out += `${QUOTE}${bytes[i]!.toString(16).toUpperCase().padStart(2, '0')}`;
      i++;
      continue;
    }
    const text = Buffer.from(bytes.buffer, bytes.byteOffset + i, n).toString('utf8');
    out += text === QUOTE ? QUOTE + QUOTE : text;
    i += n;
  }
  return out;
}

/** The length of the valid UTF-8 sequence starting at bytes[i] (RFC 3629, table 3-7), or 0. */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const b = bytes[i]!;
  if (b < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf) => {
    const c = bytes[i + k];
    return c !== undefined && c >= lo && c <= hi;
  };
  if (b >= 0xc2 && b <= 0xdf) return cont(1) ? 2 : 0;
  if (b === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if ((b >= 0xe1 && b <= 0xec) || b === 0xee || b === 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (b === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;
  if (b === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (b >= 0xf1 && b <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (b === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

/** What a walk says of a file or folder whose name (or a folder's on its way) is not UTF-8. */
export function nameNotUtf8(isFolder: boolean): Inspection {
  return {
    kind: 'skip',
    code: NAME_NOT_UTF8,
    message: isFolder
      ? 'The folder name is not valid UTF-8 (shown with each odd byte as ‛XX); the service takes only UTF-8 names, so the files in it are not synced. Rename the folder (convmv -f latin1 -t utf8 converts old Latin-1 names).'
      : 'The file name is not valid UTF-8 (shown with each odd byte as ‛XX); the service takes only UTF-8 names, so it is not synced. Rename the file (convmv -f latin1 -t utf8 converts old Latin-1 names).',
  };
}
