import { lstatSync, type Stats, statSync } from 'node:fs';
import { lstat, stat } from 'node:fs/promises';

/** What a path on disk is, for the sync engine's purposes. */
export type Inspection =
  | { kind: 'file'; size: number; mtimeMs: number; inode: number }
  | { kind: 'dir' }
  | { kind: 'gone' }
  | { kind: 'skip'; code: string; message: string };

/**
 * Symlinks to files are followed (their content is what the user sees); symlinks to folders are not
 * (a link loop would never end), and broken links and loops are reported, never crashed on.
 */
export async function inspectPath(absPath: string): Promise<Inspection> {
  let l: Stats;
  try {
    l = await lstat(absPath);
  } catch (e) {
    return fromError(e);
  }
  if (!l.isSymbolicLink()) return classify(l);
  try {
    return classifyTarget(await stat(absPath));
  } catch (e) {
    return linkError(e);
  }
}

/**
 * The same, synchronously, for the scanner, which stats a directory at a time: an lstat costs a few
 * microseconds, while its promise's round trip through the thread pool cost ten times that and made a
 * scan of 100,000 unchanged files wait on latency (docs/benchmarks.md).
 */
export function inspectPathSync(absPath: string): Inspection {
  let l: Stats | undefined;
  try {
    l = lstatSync(absPath, { throwIfNoEntry: false });
  } catch (e) {
    return fromError(e);
  }
  if (!l) return { kind: 'gone' };
  if (!l.isSymbolicLink()) return classify(l);
  try {
    return classifyTarget(statSync(absPath));
  } catch (e) {
    return linkError(e);
  }
}

function classifyTarget(s: Stats): Inspection {
  if (s.isDirectory()) {
    return {
      kind: 'skip',
      code: 'LINKED-FOLDER',
      message: 'Links to folders are not followed (they can loop); add the folder itself instead.',
    };
  }
  return classify(s);
}

function classify(s: Stats): Inspection {
  if (s.isDirectory()) return { kind: 'dir' };
  if (!s.isFile()) {
    return {
      kind: 'skip',
      code: 'NOT-A-FILE',
      message: 'Not a regular file (a pipe, socket or device); it cannot be uploaded.',
    };
  }
  return { kind: 'file', size: s.size, mtimeMs: Math.trunc(s.mtimeMs), inode: s.ino };
}

function linkError(e: unknown): Inspection {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ELOOP')
    return { kind: 'skip', code: 'LINK-LOOP', message: 'The symbolic link points to itself in a loop.' };
  if (code === 'ENOENT')
    return { kind: 'skip', code: 'BROKEN-LINK', message: 'The symbolic link points to nothing.' };
  return fromError(e);
}

function fromError(e: unknown): Inspection {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'gone' };
  if (code === 'ELOOP')
    return { kind: 'skip', code: 'LINK-LOOP', message: 'The symbolic link points to itself in a loop.' };
  if (code === 'EACCES' || code === 'EPERM')
    return { kind: 'skip', code: 'UNREADABLE', message: 'The file cannot be read (permission denied).' };
  if (code === 'ENAMETOOLONG')
    return { kind: 'skip', code: 'NAME-TOO-LONG', message: 'The path is too long for this system.' };
  return { kind: 'skip', code: 'UNREADABLE', message: `The file cannot be read (${code ?? String(e)}).` };
}

export function sameStat(
  a: { size: number | null; mtimeMs: number | null; inode: number | null },
  b: { size: number; mtimeMs: number; inode: number },
): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.inode === b.inode;
}
