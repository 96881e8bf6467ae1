import { lstatSync, realpathSync, type Stats, statSync } from 'node:fs';
import { lstat, realpath, stat } from 'node:fs/promises';
import { sep } from 'node:path';

/** What a path on disk is, for the sync engine's purposes. */
export type Inspection =
  | { kind: 'file'; size: number; mtimeMs: number; inode: number }
  | { kind: 'dir' }
  | { kind: 'gone' }
  | { kind: 'skip'; code: string; message: string };

/** Where a folder's links may lead: the folder (its path as added) and its setting. A Folder is one. */
export interface LinkScope {
  path: string;
  followOutsideLinks: boolean;
}

/** The same with the folder's real path resolved once, for a walk of the whole tree. */
export interface ResolvedScope {
  realRoot: string;
  followOutsideLinks: boolean;
}

export const LINK_OUTSIDE_FOLDER = 'LINK-OUTSIDE-FOLDER';

/**
 * Skip codes that mean "there are bytes here that could not be read", as opposed to a link, a pipe or
 * a refused extension, which have none to send or are left out on purpose (file-names.ts: FOUND_NOT_SYNCED).
 */
export const READ_FAILURES: readonly string[] = ['UNREADABLE', 'NAME-TOO-LONG'];

/** A folder of the tree the walk could not open: its row says why, so its files are not silently missing. */
export function unreadableFolder(code: string): Inspection {
  return {
    kind: 'skip',
    code: code === 'ENAMETOOLONG' ? 'NAME-TOO-LONG' : 'UNREADABLE',
    message: `The folder could not be read (${code}${code === 'EACCES' || code === 'EPERM' ? ': permission denied' : code === 'ENAMETOOLONG' ? ': its path is longer than this system allows' : ''}); the files in it are not synced.`,
  };
}

/**
 * Symlinks to files are followed (their content is what the user sees) as long as their real path
 * stays inside the folder's real path, unless the folder allows links outside; symlinks to folders are
 * not (a link loop would never end), and broken links and loops are reported, never crashed on.
 * With a scope, every path is checked, not only links: a folder on the way may have been replaced by a
 * link since the walk that found the file. The scope is not optional: every question about a path of a
 * folder (the watcher's, the hash's before and after, the delete and rename checks, the upload's) asks
 * it within the folder's scope, so none can skip the outside-links rule; `null` is for a path that is
 * no folder's file (a folder's own root, a path being added).
 */
export async function inspectPath(absPath: string, scope: LinkScope | null): Promise<Inspection> {
  let l: Stats;
  try {
    l = await lstat(absPath);
  } catch (e) {
    return fromError(e);
  }
  if (scope && !scope.followOutsideLinks) {
    let real: string;
    let root: string;
    try {
      [real, root] = await Promise.all([realpath(absPath), realpath(scope.path)]);
    } catch (e) {
      return l.isSymbolicLink() ? linkError(e) : fromError(e);
    }
    if (!isInside(real, root)) return outsideFolder(real, l.isSymbolicLink());
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
 * scan of 100,000 unchanged files wait on latency (docs/benchmarks.md). Only links are resolved here:
 * the walk never enters a linked folder, so a path it found that is not a link lies inside the root.
 */
export function inspectPathSync(absPath: string, scope?: ResolvedScope): Inspection {
  let l: Stats | undefined;
  try {
    l = lstatSync(absPath, { throwIfNoEntry: false });
  } catch (e) {
    return fromError(e);
  }
  if (!l) return { kind: 'gone' };
  if (!l.isSymbolicLink()) return classify(l);
  if (scope && !scope.followOutsideLinks) {
    let real: string;
    try {
      real = realpathSync.native(absPath);
    } catch (e) {
      return linkError(e);
    }
    if (!isInside(real, scope.realRoot)) return outsideFolder(real, true);
  }
  try {
    return classifyTarget(statSync(absPath));
  } catch (e) {
    return linkError(e);
  }
}

/** Whether a real path lies inside (or is) a folder's real path. */
export function isInside(real: string, root: string): boolean {
  if (real === root) return true;
  return real.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

export function outsideFolder(real: string, isLink: boolean): Inspection {
  return {
    kind: 'skip',
    code: LINK_OUTSIDE_FOLDER,
    message: `${isLink ? 'The link points to' : 'The path leads through a linked folder to'} ${real}, outside the synced folder; links that leave the folder are not followed unless the folder's setting allows them.`,
  };
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

export function classify(s: Stats): Inspection {
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

export function linkError(e: unknown): Inspection {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ELOOP')
    return { kind: 'skip', code: 'LINK-LOOP', message: 'The symbolic link points to itself in a loop.' };
  if (code === 'ENOENT')
    return { kind: 'skip', code: 'BROKEN-LINK', message: 'The symbolic link points to nothing.' };
  return fromError(e);
}

export function fromError(e: unknown): Inspection {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'gone' };
  if (code === 'ELOOP')
    return { kind: 'skip', code: 'LINK-LOOP', message: 'The symbolic link points to itself in a loop.' };
  if (code === 'EACCES' || code === 'EPERM')
    return {
      kind: 'skip',
      code: 'UNREADABLE',
      message: `The file cannot be read (${code}: permission denied).`,
    };
  if (code === 'ENAMETOOLONG')
    return {
      kind: 'skip',
      code: 'NAME-TOO-LONG',
      message: 'The path is longer than this system allows (ENAMETOOLONG); the file cannot be read.',
    };
  return { kind: 'skip', code: 'UNREADABLE', message: `The file cannot be read (${code ?? String(e)}).` };
}

export function sameStat(
  a: { size: number | null; mtimeMs: number | null; inode: number | null },
  b: { size: number; mtimeMs: number; inode: number },
): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.inode === b.inode;
}
