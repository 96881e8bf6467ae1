import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, type Dirent, openSync, readdirSync, readSync, realpathSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtInIgnoresUtf8, builtInRulesOnly, type IgnoreTest } from './ignore-rules';
import {
  type Inspection,
  inspectPathSync,
  type LinkScope,
  type ResolvedScope,
  unreadableFolder,
} from './inspect';
import { walkDigest } from './walk-digest';

/** One file of a folder as a walk found it: its path relative to the folder ('/'-separated). */
export interface Listed {
  name: string;
  seen: Inspection;
}

export interface TreeWalk {
  /**
   * Batches of files, after the ignore rules; and folders that could not be opened, as skips (their
   * files cannot be listed, so the folder stands for them: nothing found goes unreported).
   */
  batches: AsyncGenerator<Listed[]>;
  /** After the batches ran out: whether every subfolder was read (otherwise nothing may count as deleted). */
  complete(): boolean;
  /**
   * After the batches ran out (or `sameAsMark` said true): the digest of the whole walk (walk-digest.ts),
   * or null when there is none (not find's walk, an incomplete walk, a link or other special file met).
   */
  digest(): string | null;
  /**
   * Asked with a mark (MarkCheck): true once find's walk ended whole with the mark's digest, and then
   * the batches are empty; false otherwise, and then the batches list every file as usual.
   */
  sameAsMark?: Promise<boolean>;
}

/** What a walk's digest covers besides find's output, and the digest it is checked against, if any. */
export interface MarkCheck {
  asked: string;
  expect?: string;
}

const BATCH = 500;
const FIND_FROM_FILES = 2_000;

/**
 * Files the caller knows already (a scan: the folder's rows). A regular file that find lists is offered
 * here first, before any string or object is made for it: its path as UTF-8 bytes path[start, end)
 * and what find says of it. Taken (true: the caller has it with that inode, size and mtime, nothing to
 * do), it is not listed. A restart over an unchanged tree then costs little more than find's output.
 */
export interface KnownFiles {
  take(path: Buffer, start: number, end: number, inode: number, size: number, mtimeMs: number): boolean;
}

/**
 * Lists every file under `root`. On Linux, GNU find does the walk in its own process (type, inode,
 * size and mtime in one line per entry): it is the fastest lister there is, runs beside the event
 * loop on another core, and a restart over 100,000 files then costs little more than `find` itself
 * (docs/benchmarks.md). Elsewhere, for small trees, or when find is missing, a synchronous walk in
 * this process.
 */
export function listTree(
  root: string,
  ignored: IgnoreTest,
  /** A failure that no listed path can stand for: the root itself, or find failing with no folder to blame. */
  onUnreadable: (path: string, code: string) => void,
  /** Files the folder had last time: starting find costs 10-40 ms, worth it only for large trees. */
  expected = Number.POSITIVE_INFINITY,
  /** Where links may lead (the folder and its setting); without it links are judged by their target only. */
  links?: LinkScope,
  /** Offered each plain file first (find's walk only; the other walk lists every file). */
  known?: KnownFiles,
  /** A digest of find's walk is made for this; with `expect`, checked before anything is listed. */
  mark?: MarkCheck,
): TreeWalk {
  const scope = links ? resolveScope(root, links) : undefined;
  if (process.platform === 'linux' && expected >= FIND_FROM_FILES)
    return findWalk(root, ignored, onUnreadable, scope, known, mark);
  return nodeWalk(root, ignored, onUnreadable, scope);
}

function resolveScope(root: string, links: LinkScope): ResolvedScope {
  let realRoot = root;
  try {
    realRoot = realpathSync.native(root);
  } catch {
    // The walk of a root that cannot be resolved fails too, and says so.
  }
  return { realRoot, followOutsideLinks: links.followOutsideLinks };
}

function nodeWalk(
  root: string,
  ignored: IgnoreTest,
  onUnreadable: (path: string, code: string) => void,
  scope: ResolvedScope | undefined,
): TreeWalk {
  let complete = true;
  async function* batches(): AsyncGenerator<Listed[]> {
    const stack: string[] = [''];
    while (stack.length > 0) {
      const rel = stack.pop()!;
      let entries: Dirent[];
      try {
        entries = readdirSync(join(root, rel), { withFileTypes: true });
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code ?? String(e);
        // A folder refused now may be readable later, and its rows must not count as deleted meanwhile.
        // One too deep to open stays so, and nothing below it can ever have been sent (the upload opens
        // by the same full path): the rest of the walk still tells what is gone.
        if (code !== 'ENAMETOOLONG') complete = false;
        if (rel === '') onUnreadable(root, code);
        else yield [{ name: rel, seen: unreadableFolder(code) }];
        continue;
      }
      let batch: Listed[] = [];
      for (const entry of entries) {
        const name = rel ? `${rel}/${entry.name}` : entry.name;
        if (entry.isDirectory()) {
          if (!ignored(name, true)) stack.push(name);
        } else if (!ignored(name)) {
          batch.push({ name, seen: inspectPathSync(join(root, name), scope) });
          if (batch.length >= BATCH) {
            yield batch;
            batch = [];
          }
        }
      }
      if (batch.length) yield batch;
      // A turn for the event loop (watch events, uploads, the UI) between directories.
      await new Promise<void>((r) => setImmediate(r));
    }
  }
  return { batches: batches(), complete: () => complete, digest: () => null };
}

// type, inode, size, mtime (seconds.fraction), path relative to the root; NUL-terminated (names may hold newlines).
const FIND_FORMAT = '%y %i %s %T@ %P\\0';

function findWalk(
  root: string,
  ignored: IgnoreTest,
  onUnreadable: (path: string, code: string) => void,
  scope: ResolvedScope | undefined,
  known: KnownFiles | undefined,
  mark: MarkCheck | undefined,
): TreeWalk {
  let complete = true;
  let fallback: TreeWalk | null = null;
  const digest = mark ? walkDigest(mark.asked) : null;
  // find starts once, by the mark's check or by the first batch asked for, whichever comes first.
  let run: FindRun | null | undefined;
  const started = () => {
    if (run === undefined) run = startFind(root);
    return run;
  };
  // With a mark to check, find starts now and its output is only read into the digest; the rows
  // (scanner.ts) are read only if it differs. The output stays in its file for the batches then.
  const sameAsMark = mark?.expect
    ? (async () => {
        const f = started();
        if (!f) return false;
        for await (const chunk of appended(f.out, f.exited)) digest!.update(chunk);
        const { code, error } = await f.exited;
        const same = code === 0 && !error && digest!.result() === mark.expect;
        if (same) closeSync(f.out);
        return same;
      })().catch(() => false)
    : undefined;
  // The fast way (fastTake) needs a file's name alone to decide the ignore rules: true of the built-in
  // rules, given that each folder was judged when find listed it. Paths longer than this go the long way.
  const fastFrom = known && builtInRulesOnly(ignored) ? FAST_PATH_BYTES - Buffer.byteLength(root) : 0;
  async function* batches(): AsyncGenerator<Listed[]> {
    // Checked against the mark first: the same walk lists nothing; another is read again from its start.
    const checked = sameAsMark !== undefined;
    if (sameAsMark && (await sameAsMark)) return;
    const f = started();
    if (f === null) {
      // No temp file to be had (a full or read-only disk): walk in this process instead.
      fallback = nodeWalk(root, ignored, onUnreadable, scope);
      yield* fallback.batches;
      return;
    }
    const { out, child, exited } = f;
    // Folders left out by the ignore rules, as "name/": find lists a folder before what it holds.
    const pruned = new Set<string>();
    const childless = childlessFolders();
    let afterFolder = false;
    // `pruned` as bytes for fastTake, made again when it grew (it only grows).
    let pruneList: Buffer[] = [];
    const prunedBytes = () => {
      if (pruneList.length !== pruned.size) pruneList = [...pruned].map((p) => Buffer.from(p));
      return pruneList;
    };
    let rest: Buffer = Buffer.alloc(0);
    let any = false;
    let finished = false;
    try {
      for await (const chunk of appended(out, exited)) {
        any = true;
        if (digest && !checked) digest.update(chunk);
        const data: Buffer = rest.length ? Buffer.concat([rest, chunk]) : chunk;
        let start = 0;
        let batch: Listed[] = [];
        for (let end = data.indexOf(0, start); end >= 0; end = data.indexOf(0, start)) {
          // Right after a folder, a file goes the long way: parseEntry keeps track of empty folders.
          if (fastFrom > 0 && !afterFolder && fastTake(data, start, end, fastFrom, prunedBytes(), known!)) {
            start = end + 1;
            continue;
          }
          afterFolder = data[start] === TYPE_DIR;
          const listed = parseEntry(
            root,
            data.toString('utf8', start, end),
            ignored,
            pruned,
            scope,
            childless,
          );
          start = end + 1;
          if (!listed) continue;
          batch.push(listed);
          if (batch.length >= BATCH) {
            yield batch;
            batch = [];
          }
        }
        rest = Buffer.from(data.subarray(start));
        if (batch.length) yield batch;
      }
      finished = true;
    } finally {
      // A consumer that stops early (a scan cancelled) must not leave find walking for nobody.
      if (!finished && child.exitCode === null) child.kill();
      closeSync(out);
    }
    const { code, error } = await exited;
    if (error && !any) {
      // No find here (a minimal system): walk in this process instead.
      fallback = nodeWalk(root, ignored, onUnreadable, scope);
      yield* fallback.batches;
      return;
    }
    if (code !== 0) {
      complete = false;
      // find's messages are for people (quoted, localised): name the folders by opening them instead.
      const refused = unreadableAmong(root, childless.end());
      if (refused.length) yield refused;
      else
        onUnreadable(
          root,
          f.stderr().trim().split('\n').slice(0, 3).join('; ') || `find exited with ${code}`,
        );
    }
  }
  return {
    batches: batches(),
    complete: () => (fallback ? fallback.complete() : complete),
    digest: () => (digest && !fallback && complete && run ? digest.result() : null),
    ...(sameAsMark ? { sameAsMark } : {}),
  };
}

interface FindRun {
  /** find's output file (unlinked), read from its start by whoever reads it. */
  out: number;
  child: ChildProcess;
  exited: Promise<{ code: number | null; error?: NodeJS.ErrnoException }>;
  stderr(): string;
}

/** Starts find over `root`, its output to an unlinked temp file; null when no temp file can be made. */
function startFind(root: string): FindRun | null {
  // find writes to a file, not a pipe: a pipe holds ~200 KB, and find then waits whenever this
  // process is busy elsewhere (the scanner reads its rows while find walks, scanner.ts).
  const out = unlinkedTempFile();
  if (out === null) return null;
  const child = spawn('find', [root, '-mindepth', '1', '-printf', FIND_FORMAT], {
    stdio: ['ignore', out, 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  const exited = new Promise<{ code: number | null; error?: NodeJS.ErrnoException }>((resolve) => {
    child.once('error', (error: NodeJS.ErrnoException) => resolve({ code: null, error }));
    child.once('close', (code) => resolve({ code }));
  });
  return { out, child, exited, stderr: () => stderr };
}

/**
 * A file for find's output, removed at once (nothing is left behind, whatever happens): its
 * descriptor, or null when none can be made.
 */
function unlinkedTempFile(): number | null {
  const path = join(tmpdir(), `assets-sync-find-${process.pid}-${randomBytes(8).toString('hex')}`);
  let fd: number;
  try {
    fd = openSync(path, 'wx+', 0o600);
  } catch {
    return null;
  }
  try {
    unlinkSync(path);
  } catch {
    // Still usable; the system's temp cleaning will take the name.
  }
  return fd;
}

/** Bytes read at once from find's output. */
const READ_BYTES = 1024 * 1024;
/** While find runs and nothing new is there, how long before looking again (a file does not say it grew). */
const POLL_MS = 5;

/**
 * What find appends to `fd`, as it comes, until it exited and all was read: whole NUL-ended records
 * in one buffer used over and over (valid until the next one is asked for), so reading 100,000 files'
 * worth makes no garbage.
 */
async function* appended(fd: number, exited: Promise<unknown>): AsyncGenerator<Buffer> {
  let done = false;
  void exited.then(() => {
    done = true;
  });
  let buf = Buffer.allocUnsafe(READ_BYTES);
  let filled = 0;
  for (let position = 0; ; ) {
    if (filled === buf.length) {
      // One record longer than the buffer (never, in practice: paths end at 4 KB).
      const bigger = Buffer.allocUnsafe(buf.length * 2);
      buf.copy(bigger, 0, 0, filled);
      buf = bigger;
    }
    const n = readSync(fd, buf, filled, buf.length - filled, position);
    if (n > 0) {
      position += n;
      filled += n;
      const end = buf.lastIndexOf(0, filled - 1) + 1;
      if (end === 0) continue;
      yield buf.subarray(0, end);
      buf.copyWithin(0, end, filled);
      filled -= end;
      continue;
    }
    if (done) {
      if (filled > 0) yield buf.subarray(0, filled);
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, POLL_MS)))]);
    clearTimeout(timer);
  }
}

const TYPE_DIR = 0x64; // 'd'
const DOT = 0x2e;
const TYPE_FILE = 0x66; // 'f'
const SPACE = 0x20;
const SLASH = 0x2f;
/** Root and path together under this many bytes (tooLongToOpen's limit is far above). */
const FAST_PATH_BYTES = 1000;

/**
 * A plain file's record ("f inode size seconds.fraction path") offered to `known` as it is in find's
 * output, no string made: true when taken. Anything else (another type, an odd number, a long path,
 * an ignored name, a path under an ignored folder) is left to parseEntry, which decides it the usual way.
 */
function fastTake(
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

function parseEntry(
  root: string,
  record: string,
  ignored: IgnoreTest,
  pruned: Set<string>,
  scope: ResolvedScope | undefined,
  childless: ChildlessFolders,
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
  if (type === 'd') {
    const left = ignored(name, true);
    if (left) pruned.add(`${name}/`);
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

interface ChildlessFolders {
  /** Each entry in find's order (a folder is listed before what it holds). */
  see(name: string, isFolder: boolean): void;
  /** The folders listed with nothing under them: empty ones, and those find could not open. */
  end(): string[];
}

function childlessFolders(): ChildlessFolders {
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
function unreadableAmong(root: string, names: string[]): Listed[] {
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
