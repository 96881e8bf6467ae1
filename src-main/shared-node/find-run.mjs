// find's walk of one folder, started here and read by the core's scan (core/sync/local/find-walk.ts).
// Plain JavaScript, built-ins only: the CLI's launcher (bin/assets-sync.mjs, src-main/launcher/
// early-find.mjs) starts the walk of the folder a `sync DIR` is about to scan before the bundle loads,
// so that Node's start and the loading of the modules run beside find instead of before it
// (docs/benchmarks.md, the restart figure). The scan then takes that walk (takeEarlyFind).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, opendirSync, openSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// type, inode, size, mtime (seconds.fraction), path relative to the root; NUL-terminated (names may hold newlines).
const FIND_FORMAT = '%y %i %s %T@ %P\\0';
// The same record from a find started in the root on some of its entries: %p is then the path as given.
const PART_FORMAT = '%y %i %s %T@ %p\\0';

/**
 * From this many entries at the top of the folder, the walk is split between FIND_PARTS finds, each
 * over a run of those entries in the order the folder lists them: their outputs, read one after the
 * other, are byte for byte what one find prints (the scan marks' digests of it stay valid; above
 * 10,000 entries find orders a folder's entries by inode, and a mark one find took is compared row by
 * row once). find stats every entry on one thread; two finds finish the walk of 100,000 files in
 * 0.32 s where one takes 0.43 s, and beside other busy processes they get two shares of the cores
 * instead of one (docs/benchmarks.md, the restart).
 */
export const SPLIT_FROM = 64;
const FIND_PARTS = 2;

/**
 * Starts find over `root`, its output to unlinked temp files; null when no temp file can be made.
 * find writes to a file, not a pipe: a pipe holds ~200 KB, and find then waits whenever this process
 * is busy elsewhere (the scanner reads its rows while find walks, scanner.ts; and an early walk runs
 * while the modules load, with nobody reading).
 */
export function startFind(root, options = {}) {
  const { parts: wanted = FIND_PARTS, splitFrom = SPLIT_FROM } = options;
  const entries = wanted > 1 ? topEntries(root) : null;
  const groups = entries && entries.length >= splitFrom ? split(entries, wanted) : null;
  const outs = [];
  for (let i = 0; i < (groups?.length ?? 1); i++) {
    const out = unlinkedTempFile();
    if (out === null) {
      for (const fd of outs) closeSync(fd);
      return null;
    }
    outs.push(out);
  }
  const parts = groups
    ? groups.map((names, i) => startPart(['-files0-from', '-', '-printf', PART_FORMAT], outs[i], root, names))
    : [startPart([root, '-mindepth', '1', '-printf', FIND_FORMAT], outs[0])];
  let closed = false;
  return {
    parts: parts.map(({ out, exited }) => ({ out, exited })),
    // The first part that failed, once all ended: one find's failure is the walk's.
    exited: Promise.all(parts.map((p) => p.exited)).then(
      (all) => all.find((r) => r.error) ?? all.find((r) => r.code !== 0) ?? all[0],
    ),
    stderr: () => parts.map((p) => p.stderr()).join(''),
    stop() {
      for (const p of parts) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill();
    },
    close() {
      if (closed) return;
      closed = true;
      for (const p of parts) {
        try {
          closeSync(p.out);
        } catch {
          // closed already
        }
      }
    },
  };
}

/** One find, writing to `out`; its starting points (names in `cwd`) on its stdin when given. */
function startPart(args, out, cwd, names) {
  const child = spawn('find', args, {
    stdio: [names ? 'pipe' : 'ignore', out, 'pipe'],
    ...(cwd ? { cwd } : {}),
  });
  if (names) {
    // A find that failed to start or stopped early closes its end: that is its exit's to report.
    child.stdin.on('error', () => undefined);
    child.stdin.end(Buffer.concat(names.flatMap((n) => [n, NUL])));
  }
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise((resolve) => {
    child.once('error', (error) => resolve({ code: null, error }));
    child.once('close', (code) => resolve({ code }));
  });
  return { out, child, exited, stderr: () => stderr };
}

const NUL = Buffer.from([0]);

/**
 * The names at the top of `root` as bytes, in the order the folder gives them (find's order: readdir's
 * sorts them); null when it cannot be read (one find then says why, as it always did).
 */
function topEntries(root) {
  let dir;
  try {
    dir = opendirSync(root, { encoding: 'buffer', bufferSize: 128 });
  } catch {
    return null;
  }
  const names = [];
  try {
    for (let e = dir.readSync(); e !== null; e = dir.readSync()) names.push(e.name);
  } catch {
    return null;
  } finally {
    dir.closeSync();
  }
  return names;
}

/** `names` in `parts` runs of (nearly) equal length, in order. */
function split(names, parts) {
  const size = Math.ceil(names.length / parts);
  const groups = [];
  for (let at = 0; at < names.length; at += size) groups.push(names.slice(at, at + size));
  return groups;
}

/**
 * A file for find's output, removed at once (nothing is left behind, whatever happens): its
 * descriptor, or null when none can be made.
 */
function unlinkedTempFile() {
  const path = join(tmpdir(), `assets-sync-find-${process.pid}-${randomBytes(8).toString('hex')}`);
  let fd;
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

/**
 * The early walk lives on globalThis, not in this module: the launcher loads this file from the
 * sources and the bundle has its own copy of it (find-walk.ts imports it), two module instances.
 */
const EARLY = Symbol.for('assets-sync.early-find');

/** An early walk older than this when the scan asks is not taken: the tree may have changed since. */
export const EARLY_FIND_MAX_AGE_MS = 10_000;

/** Starts the walk of `root` now, for the first scan of `root` to take (Linux only, as find-walk.ts). */
export function startEarlyFind(root) {
  if (process.platform !== 'linux' || globalThis[EARLY]) return;
  const run = startFind(root);
  if (!run) return;
  const early = { root, run, startedAt: performance.now() };
  globalThis[EARLY] = early;
  // Not taken by then, it never will be: stopped, whatever the process does meanwhile.
  setTimeout(() => {
    if (globalThis[EARLY] === early) dropEarlyFind();
  }, EARLY_FIND_MAX_AGE_MS).unref();
}

/** The walk of `root` started early, taken once; undefined when there is none (or it is too old). */
export function takeEarlyFind(root) {
  const early = globalThis[EARLY];
  if (!early || early.root !== root) return undefined;
  globalThis[EARLY] = undefined;
  if (performance.now() - early.startedAt <= EARLY_FIND_MAX_AGE_MS) return early.run;
  dropRun(early.run);
  return undefined;
}

/** True when a walk of `root` was started early and not taken yet. */
export function hasEarlyFind(root) {
  return globalThis[EARLY]?.root === root;
}

/** Stops an early walk that no scan took (the folder was another, or listed another way). */
export function dropEarlyFind() {
  const early = globalThis[EARLY];
  globalThis[EARLY] = undefined;
  if (early) dropRun(early.run);
}

function dropRun(run) {
  run.stop();
  run.close();
}
