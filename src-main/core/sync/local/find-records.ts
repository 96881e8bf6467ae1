import { isUtf8 } from 'node:buffer';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { displayName, nameNotUtf8 } from './file-names';
import { builtInIgnoresUtf8, type IgnoreTest } from './ignore-rules';
import { inspectPathSync, type ResolvedScope, unreadableFolder } from './inspect';
import type { KnownFiles, Listed } from './list-tree';

// The records of find's output (find-walk.ts: "%y %i %s %T@ %P\0"), read in place or made into a Listed.

export const TYPE_DIR = 0x64; // 'd'
const DOT = 0x2e;
const TYPE_FILE = 0x66; // 'f'
const SPACE = 0x20;
const SLASH = 0x2f;
/** Root and path together under this many bytes (tooLongToOpen's limit is far above). */
export const FAST_PATH_BYTES = 1000;

/**
 * A plain file's record ("f inode size seconds.fraction path") offered to `known` as it is in find's
 * output, no string made: true when taken. Anything else (another type, an odd number, a long path,
 * an ignored name, a path under an ignored folder) is left to parseEntry, which decides it the usual way.
 */
export function fastTake(
  data: Buffer,
  start: number,
  end: number,
  maxPath: number,
  pruned: readonly Buffer[],
  known: KnownFiles,
): boolean {
  if (data[start] !== TYPE_FILE || data[start + 1] !== SPACE) return false;
  let i = start + 2;
  const inode = digitsAt(data, i, SPACE);
  if (inode < 0) return false;
  i = digitsEnd;
  const size = digitsAt(data, i + 1, SPACE);
  if (size < 0) return false;
  i = digitsEnd;
  const seconds = digitsAt(data, i + 1, DOT);
  if (seconds < 0) return false;
  // Nanoseconds from the first 9 digits of the fraction, as epochMs() reads them.
  let nsec = 0;
  let digits = 0;
  for (i = digitsEnd + 1; i < end && data[i] !== SPACE; i++) {
    const d = data[i]! - 0x30;
    if (d < 0 || d > 9) return false;
    if (digits < 9) {
      nsec = nsec * 10 + d;
      digits++;
    }
  }
  if (digits === 0 || i >= end) return false;
  for (; digits < 9; digits++) nsec *= 10;
  const pathStart = i + 1;
  if (end - pathStart >= maxPath || pathStart >= end) return false;
  // The built-in rules (the only ones here) judge a file by its own name: its folders were judged
  // when find listed them, and those left out are in `pruned`.
  const slash = data.lastIndexOf(SLASH, end - 1);
  if (builtInIgnoresUtf8(data, slash >= pathStart ? slash + 1 : pathStart, end)) return false;
  if (pruned.length > 0 && underPrunedBytes(data, pathStart, end, pruned)) return false;
  return known.take(data, pathStart, end, inode, size, Math.trunc(seconds * 1e3 + nsec / 1e6));
}

/** Where the last digitsAt() stopped (the separator's index). */
let digitsEnd = 0;

/** The decimal number at data[i...] up to `stop`, or -1 (no digit, another byte, or over 15 digits). */
function digitsAt(data: Buffer, from: number, stop: number): number {
  let n = 0;
  let i = from;
  for (; data[i] !== stop; i++) {
    const d = data[i]! - 0x30;
    if (d < 0 || d > 9 || i - from >= 15) return -1;
    n = n * 10 + d;
  }
  digitsEnd = i;
  return i === from ? -1 : n;
}

/** underPruned() on bytes: whether data[start, end) starts with one of the folders left out ("name/"). */
function underPrunedBytes(data: Buffer, start: number, end: number, pruned: readonly Buffer[]): boolean {
  for (const folder of pruned) {
    const n = folder.length;
    if (end - start > n && data.compare(folder, 0, n, start, start + n) === 0) return true;
  }
  return false;
}

/**
 * One record as text, and whether its path is UTF-8. One that is not would decode with U+FFFD for its
 * odd bytes (a name that opens nothing, and two files could share it): it is written with those bytes
 * escaped (file-names.ts), and parseEntry() makes it a skip.
 */
export function recordText(data: Buffer, start: number, end: number): [text: string, utf8: boolean] {
  const text = data.toString('utf8', start, end);
  if (!text.includes('\uFFFD')) return [text, true];
  const bytes = data.subarray(start, end);
  return isUtf8(bytes) ? [text, true] : [displayName(bytes), false];
}

export function parseEntry(
  root: string,
  record: string,
  ignored: IgnoreTest,
  pruned: Set<string>,
  scope: ResolvedScope | undefined,
  childless: ChildlessFolders,
  /** False for a record whose path is not UTF-8 (recordText). */
  utf8 = true,
): Listed | null {
  // "%y %i %s %T@ %P": the first four fields hold no spaces; the path may.
  const s1 = record.indexOf(' ');
  const s2 = record.indexOf(' ', s1 + 1);
  const s3 = record.indexOf(' ', s2 + 1);
  const s4 = record.indexOf(' ', s3 + 1);
  if (s1 < 0 || s2 < 0 || s3 < 0 || s4 < 0) return null;
  const type = record.slice(0, s1);
  const name = record.slice(s4 + 1);
  if (underPruned(name, pruned)) return null;
  if (!utf8) {
    // Never entered (find lists what is under it next: left out by its folder's name) nor opened again.
    const isFolder = type === 'd';
    if (isFolder) pruned.add(`${name}/`);
    childless.see(name, false);
    return ignored(name, isFolder) ? null : { name, seen: nameNotUtf8(isFolder) };
  }
  if (type === 'd') {
    const left = ignored(name, true);
    if (left) pruned.add(`${name}/`);
    else if (tooLongToOpen(root, name)) {
      // A folder no open() can reach (find walks relative to each folder and lists what is under it):
      // named once, as the folder, and what it holds left out, as the in-process lister names it. Listed
      // file by file instead, `sync --once` named a file deep inside where a walk in this process named
      // the folder, for the same tree (test/sync/unreadable.test.ts).
      const seen = inspectPathSync(join(root, name), scope);
      if (seen.kind === 'skip' && seen.code === 'NAME-TOO-LONG') {
        pruned.add(`${name}/`);
        childless.see(name, false);
        return { name, seen };
      }
    }
    childless.see(name, !left);
    return null;
  }
  childless.see(name, false);
  if (ignored(name)) return null;
  const mtimeMs = type === 'f' ? epochMs(record.slice(s3 + 1, s4)) : null;
  if (mtimeMs === null || tooLongToOpen(root, name)) {
    // Links, pipes, sockets, devices, odd times, paths over PATH_MAX (find walks relative to each
    // folder, so it lists what no open() can reach): the same rules as everywhere else.
    return { name, seen: inspectPathSync(join(root, name), scope) };
  }
  return {
    name,
    seen: {
      kind: 'file',
      inode: Number(record.slice(s1 + 1, s2)),
      size: Number(record.slice(s2 + 1, s3)),
      mtimeMs,
    },
  };
}

function underPruned(name: string, pruned: Set<string>): boolean {
  if (pruned.size === 0) return false;
  for (let i = name.indexOf('/'); i >= 0; i = name.indexOf('/', i + 1)) {
    if (pruned.has(name.slice(0, i + 1))) return true;
  }
  return false;
}

/**
 * "1732170000.1234567890" -> ms since the epoch computed as Node computes `stat.mtimeMs` (seconds * 1e3
 * + nanoseconds / 1e6, in doubles) and then truncated as inspect.ts does, so both listers agree. Read
 * digit by digit (no regex, no substrings): a scan reads one per file.
 */
function epochMs(text: string): number | null {
  const dot = text.indexOf('.');
  const secondsEnd = dot < 0 ? text.length : dot;
  // Past 15 digits of seconds (millions of years away) a double may not hold them: lstat decides.
  if (secondsEnd === 0 || secondsEnd > 15 || dot === text.length - 1) return null;
  let seconds = 0;
  for (let i = 0; i < secondsEnd; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return null;
    seconds = seconds * 10 + d;
  }
  let nsec = 0;
  let digits = 0;
  for (let i = secondsEnd + 1; i < text.length; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return null;
    if (digits < 9) {
      nsec = nsec * 10 + d;
      digits++;
    }
  }
  for (; digits < 9; digits++) nsec *= 10;
  return Math.trunc(seconds * 1e3 + nsec / 1e6);
}

/** A path this long (PATH_MAX is 4096 on Linux) cannot be opened whole: inspect it, so it says so. */
function tooLongToOpen(root: string, name: string): boolean {
  return root.length + name.length >= 1000 && Buffer.byteLength(join(root, name)) >= 4000;
}

export interface ChildlessFolders {
  /** Each entry in find's order (a folder is listed before what it holds). */
  see(name: string, isFolder: boolean): void;
  /** The folders listed with nothing under them: empty ones, and those find could not open. */
  end(): string[];
}

export function childlessFolders(): ChildlessFolders {
  let last: string | null = null;
  const found: string[] = [];
  return {
    see(name, isFolder) {
      if (last !== null && !name.startsWith(`${last}/`)) found.push(last);
      last = isFolder ? name : null;
    },
    end() {
      if (last !== null) found.push(last);
      last = null;
      return found;
    },
  };
}

/** The folders among `names` this process cannot open, as skips saying why (only after find failed). */
export function unreadableAmong(root: string, names: string[]): Listed[] {
  const out: Listed[] = [];
  for (const name of names) {
    try {
      readdirSync(join(root, name));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? String(e);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') out.push({ name, seen: unreadableFolder(code) });
    }
  }
  return out;
}
