import { spawn } from 'node:child_process';
import { type Dirent, readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { IgnoreTest } from './ignore-rules';
import {
  type Inspection,
  inspectPathSync,
  type LinkScope,
  type ResolvedScope,
  unreadableFolder,
} from './inspect';

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
}

const BATCH = 500;
const FIND_FROM_FILES = 2_000;

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
): TreeWalk {
  const scope = links ? resolveScope(root, links) : undefined;
  if (process.platform === 'linux' && expected >= FIND_FROM_FILES)
    return findWalk(root, ignored, onUnreadable, scope);
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
  return { batches: batches(), complete: () => complete };
}

// type, inode, size, mtime (seconds.fraction), path relative to the root; NUL-terminated (names may hold newlines).
const FIND_FORMAT = '%y %i %s %T@ %P\\0';

function findWalk(
  root: string,
  ignored: IgnoreTest,
  onUnreadable: (path: string, code: string) => void,
  scope: ResolvedScope | undefined,
): TreeWalk {
  let complete = true;
  let fallback: TreeWalk | null = null;
  async function* batches(): AsyncGenerator<Listed[]> {
    const child = spawn('find', [root, '-mindepth', '1', '-printf', FIND_FORMAT], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const exited = new Promise<{ code: number | null; error?: NodeJS.ErrnoException }>((resolve) => {
      child.once('error', (error: NodeJS.ErrnoException) => resolve({ code: null, error }));
      child.once('close', (code) => resolve({ code }));
    });
    // Folders left out by the ignore rules, as "name/": find lists a folder before what it holds.
    const pruned = new Set<string>();
    const childless = childlessFolders();
    let rest: Buffer = Buffer.alloc(0);
    let any = false;
    let finished = false;
    try {
      for await (const chunk of drained(child.stdout)) {
        any = true;
        const data: Buffer = rest.length ? Buffer.concat([rest, chunk]) : chunk;
        let start = 0;
        let batch: Listed[] = [];
        for (let end = data.indexOf(0, start); end >= 0; end = data.indexOf(0, start)) {
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
        rest = data.subarray(start);
        if (batch.length) yield batch;
      }
      finished = true;
    } finally {
      // A consumer that stops early (a scan cancelled) must not leave find blocked on a full pipe.
      if (!finished && child.exitCode === null) child.kill();
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
      else onUnreadable(root, stderr.trim().split('\n').slice(0, 3).join('; ') || `find exited with ${code}`);
    }
  }
  return { batches: batches(), complete: () => (fallback ? fallback.complete() : complete) };
}

/** find's output held in memory while nobody reads it, at most this much (about 40 bytes per file). */
const HELD_BYTES = 32 * 1024 * 1024;

/**
 * The chunks of a stream, read as soon as they arrive rather than when asked for: find then never
 * waits on a full pipe while the consumer is busy elsewhere (the scanner reads its rows meanwhile,
 * scanner.ts), so the two run side by side. Past HELD_BYTES unread, the stream is paused after all.
 */
async function* drained(stream: Readable): AsyncGenerator<Buffer> {
  const queue: Buffer[] = [];
  let held = 0;
  let ended = false;
  let failed: Error | null = null;
  let wake: (() => void) | null = null;
  const signal = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const onData = (chunk: Buffer) => {
    queue.push(chunk);
    held += chunk.length;
    if (held > HELD_BYTES) stream.pause();
    signal();
  };
  const onEnd = () => {
    ended = true;
    signal();
  };
  const onError = (e: Error) => {
    failed = e;
    signal();
  };
  stream.on('data', onData).once('end', onEnd).once('error', onError);
  try {
    for (;;) {
      for (let chunk = queue.shift(); chunk; chunk = queue.shift()) {
        held -= chunk.length;
        if (stream.isPaused() && held < HELD_BYTES / 2) stream.resume();
        yield chunk;
      }
      if (failed) throw failed;
      if (ended) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    stream.off('data', onData).off('end', onEnd).off('error', onError);
  }
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
