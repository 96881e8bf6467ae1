import { realpathSync } from 'node:fs';
import { hasEarlyFind } from '../../../shared-node/find-run.mjs';
import { findWalk } from './find-walk';
import type { IgnoreTest } from './ignore-rules';
import type { Inspection, LinkScope, ResolvedScope } from './inspect';
import { nodeWalk } from './node-walk';

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
  // A walk the launcher started for this folder is taken whatever its size: it is under way already.
  if (process.platform === 'linux' && (expected >= FIND_FROM_FILES || hasEarlyFind(root)))
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
