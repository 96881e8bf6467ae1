import { readSync } from 'node:fs';
import { type FindRun, startFind, takeEarlyFind } from '../../../shared-node/find-run.mjs';
import {
  childlessFolders,
  FAST_PATH_BYTES,
  fastTake,
  parseEntry,
  recordText,
  TYPE_DIR,
  unreadableAmong,
} from './find-records';
import { builtInRulesOnly, type IgnoreTest } from './ignore-rules';
import type { ResolvedScope } from './inspect';
import type { KnownFiles, Listed, MarkCheck, TreeWalk } from './list-tree';
import { BATCH, nodeWalk } from './node-walk';
import { walkDigest } from './walk-digest';

/**
 * The walk by GNU find (list-tree.ts says when): find in its own process writes one record per entry
 * to an unlinked temp file, read here as it grows; plain files are offered to the caller's KnownFiles
 * as bytes first; the output can be checked against a scan mark's digest before anything is listed.
 */

export function findWalk(
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
  // find starts once, by the mark's check or by the first batch asked for, whichever comes first;
  // unless the launcher started it already, as the process began (find-run.mjs).
  let run: FindRun | null | undefined;
  const started = () => {
    if (run === undefined) run = takeEarlyFind(root) ?? startFind(root);
    return run;
  };
  // With a mark to check, find starts now and its output is only read into the digest; the rows
  // (scanner.ts) are read only if it differs. The output stays in its file for the batches then.
  const sameAsMark = mark?.expect
    ? (async () => {
        const f = started();
        if (!f) return false;
        for await (const chunk of output(f)) digest!.update(chunk);
        const { code, error } = await f.exited;
        const same = code === 0 && !error && digest!.result() === mark.expect;
        if (same) f.close();
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
    const { exited } = f;
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
      for await (const chunk of output(f)) {
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
          const [text, utf8] = recordText(data, start, end);
          const listed = parseEntry(root, text, ignored, pruned, scope, childless, utf8);
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
      if (!finished) f.stop();
      f.close();
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

/** Bytes read at once from find's output. */
const READ_BYTES = 1024 * 1024;
/** While find runs and nothing new is there, how long before looking again (a file does not say it grew). */
const POLL_MS = 5;

/** The walk's records, as they come: each find's output in turn (find-run.mjs splits a wide folder). */
async function* output(run: FindRun): AsyncGenerator<Buffer> {
  for (const part of run.parts) yield* appended(part.out, part.exited);
}

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
