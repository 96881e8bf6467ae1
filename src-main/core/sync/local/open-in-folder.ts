import { constants, type Stats } from 'node:fs';
import { type FileHandle, open, readlink, realpath, stat } from 'node:fs/promises';
import { classify, type Inspection, inspectPath, isInside, type LinkScope, outsideFolder } from './inspect';

/** What an open file's stat is compared by: the row's stat, and ctime for any write or touch since. */
export interface HandleStat {
  size: number;
  mtimeMs: number;
  inode: number;
  ctimeMs: number;
}

export type Opened = { ok: true; handle: FileHandle; stat: HandleStat } | { ok: false; seen: Inspection };

export async function statOfHandle(handle: FileHandle): Promise<HandleStat> {
  return handleStat(await handle.stat());
}

const handleStat = (s: Stats): HandleStat => ({
  size: s.size,
  mtimeMs: Math.trunc(s.mtimeMs),
  inode: s.ino,
  ctimeMs: s.ctimeMs,
});

/**
 * Opens a folder's file for an upload and checks the file that was opened, not the path before it
 * was opened: a link retargeted between a check and the open would otherwise send whatever it points
 * to by then. The caller reads through the handle (and closes it).
 */
export async function openInFolder(absPath: string, scope: LinkScope): Promise<Opened> {
  let handle: FileHandle;
  try {
    // O_NONBLOCK: a path swapped for a FIFO must not hang the open (regular files ignore the flag).
    handle = await open(absPath, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    // Say what the path is now (gone, a broken link, a loop...), as everywhere else.
    return { ok: false, seen: await inspectPath(absPath, scope) };
  }
  try {
    const s = await handle.stat();
    if (!s.isFile()) return await refuse(handle, classify(s));
    if (!scope.followOutsideLinks) {
      const [where, root] = await Promise.all([openedPath(handle, absPath), realpath(scope.path)]);
      if (where === null) return await refuse(handle, await inspectPath(absPath, scope));
      if (!isInside(where, root)) return await refuse(handle, outsideFolder(where, true));
    }
    return { ok: true, handle, stat: handleStat(s) };
  } catch {
    return refuse(handle, await inspectPath(absPath, scope));
  }
}

/**
 * A path that reaches the opened file itself, where the file was opened with its links resolved: on Linux
 * the kernel's own answer (/proc/self/fd), which no later rename or retarget can change; elsewhere the
 * path's real path, trusted only when it names the very file that is open (same device and inode).
 */
async function openedPath(handle: FileHandle, absPath: string): Promise<string | null> {
  if (process.platform === 'linux') {
    try {
      return await readlink(`/proc/self/fd/${handle.fd}`);
    } catch {
      // no /proc mounted: the portable way below
    }
  }
  const real = await realpath(absPath);
  const [named, opened] = await Promise.all([stat(real), handle.stat()]);
  return named.dev === opened.dev && named.ino === opened.ino ? real : null;
}

async function refuse(handle: FileHandle, seen: Inspection): Promise<Opened> {
  await handle.close().catch(() => undefined);
  return { ok: false, seen };
}
