// find's walk of one folder, started here and read by the core's scan (core/sync/local/find-walk.ts).
// Plain JavaScript, built-ins only: the CLI's launcher (bin/assets-sync.mjs, src-main/launcher/
// early-find.mjs) starts the walk of the folder a `sync DIR` is about to scan before the bundle loads,
// so that Node's start and the loading of the modules run beside find instead of before it
// (docs/benchmarks.md, the restart figure). The scan then takes that walk (takeEarlyFind).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// type, inode, size, mtime (seconds.fraction), path relative to the root; NUL-terminated (names may hold newlines).
const FIND_FORMAT = '%y %i %s %T@ %P\\0';

/**
 * Starts find over `root`, its output to an unlinked temp file; null when no temp file can be made.
 * find writes to a file, not a pipe: a pipe holds ~200 KB, and find then waits whenever this process
 * is busy elsewhere (the scanner reads its rows while find walks, scanner.ts; and an early walk runs
 * while the modules load, with nobody reading).
 */
export function startFind(root) {
  const out = unlinkedTempFile();
  if (out === null) return null;
  const child = spawn('find', [root, '-mindepth', '1', '-printf', FIND_FORMAT], {
    stdio: ['ignore', out, 'pipe'],
  });
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
  if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill();
  try {
    closeSync(run.out);
  } catch {
    // closed already
  }
}
