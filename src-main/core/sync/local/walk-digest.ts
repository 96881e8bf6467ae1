import { isUtf8 } from 'node:buffer';
import { createHash, type Hash } from 'node:crypto';

/** Changed when what the digest covers, or how find is asked, changes: old marks then never match. */
// Still 1 after names not in UTF-8 were named (issue 22): a walk that meets one has no digest, so a
// mark an older version left over such a walk can never match it again.
const VERSION = 'assets-sync scan mark 1';

/**
 * A digest of one walk of find's (list-tree.ts): what was asked (the folder, its ignore patterns and
 * the settings that decide what a file becomes) and every byte find wrote, in order. Two walks with
 * the same digest listed the same entries with the same type, inode, size and mtime, in the same
 * order; a scan then decides the same for each (scanner.ts, scan-marks-store.ts).
 *
 * Only a walk of folders and plain files can be taken as its digest: a link's record says nothing of
 * its target, which the scan looks up (inspect.ts) and which may have changed under the same record.
 * A walk that met anything else, or a name that is not UTF-8 (file-names.ts), has no digest.
 */
export interface WalkDigest {
  /** One piece of find's output, whole NUL-ended records (the last piece may lack its NUL). */
  update(chunk: Buffer): void;
  /** Hex digest, or null when a record other than a folder or a plain file was met. */
  result(): string | null;
}

export function walkDigest(asked: string): WalkDigest {
  const hash: Hash = createHash('sha1');
  hash.update(VERSION);
  hash.update('\0');
  hash.update(asked);
  hash.update('\0');
  let plain = true;
  let done: string | null | undefined;
  return {
    update(chunk) {
      if (done !== undefined) throw new Error('walk digest updated after its result');
      hash.update(chunk);
      if (!plain) return;
      // A name that is not UTF-8 is skipped by its display name, not looked up again by its bytes.
      if (!isUtf8(chunk)) {
        plain = false;
        return;
      }
      // Each record starts with its type letter (%y): 'f' or 'd' only.
      for (let start = 0; start < chunk.length; ) {
        const type = chunk[start];
        if (type !== FILE || chunk[start + 1] !== SPACE) {
          if (type !== DIR || chunk[start + 1] !== SPACE) {
            plain = false;
            return;
          }
        }
        const end = chunk.indexOf(0, start);
        if (end < 0) return;
        start = end + 1;
      }
    },
    result() {
      if (done === undefined) done = plain ? hash.digest('hex') : null;
      return done;
    },
  };
}

const FILE = 0x66; // 'f'
const DIR = 0x64; // 'd'
const SPACE = 0x20;
