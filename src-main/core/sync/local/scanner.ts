import type { SyncContext } from '../context';
import type { ScanIndex } from '../state/scan-index';
import { BUSY_STATES } from '../state/transitions';
import type { FileState, Folder } from '../types';
import { ignoreRules } from './ignore-rules';
import { type Inspection, inspectPath } from './inspect';
import { type KnownFiles, type Listed, listTree, type TreeWalk } from './list-tree';
import { FOLDER_MISSING, folderMissing, localGone, observe } from './observe';

/** Rows read and written per query / transaction. */
const BATCH = 500;

export interface ScanResult {
  files: number;
  ok: boolean;
  /** Stopped at the mark: the walk was the same as the last consistent scan's (nothing compared). */
  sameAsMark?: boolean;
}

/**
 * Walks a folder (list-tree.ts) and compares each file with the folder's rows, read while the walk
 * starts (state/scan-index.ts: about 6 MB per 100,000 files, outside the JS heap, handed on to the
 * next scan); only what changed is written, one transaction per batch. So a restart over 100,000
 * unchanged files costs little more than `find` (docs/benchmarks.md).
 * Rows not found by the walk were deleted while nobody watched, but only when the walk read every
 * subfolder: a folder that could not be read deletes nothing.
 */
export async function scanFolder(
  ctx: SyncContext,
  folder: Folder,
  signal?: AbortSignal,
): Promise<ScanResult> {
  const root = await inspectPath(folder.path, null);
  if (root.kind !== 'dir') {
    folderMissing(ctx, folder);
    return { files: 0, ok: false };
  }
  if (folder.problem) {
    ctx.folders.update(folder.id, { problem: null });
    ctx.log('folder-back', `The folder ${folder.path} is readable again.`, { folderId: folder.id });
  }
  const rules = ignoreRules(folder.ignore);
  const ignored = ctx.ignored.track(folder.id, folder.ignore, rules);
  // Files the walk offers before it makes anything of them (list-tree.ts): those unchanged since the
  // last run are marked met here and never listed. Until the rows are read, everything is listed.
  let index: ScanIndex | null = null;
  let taken = 0;
  const knownFiles: KnownFiles = {
    take(path, start, end, inode, size, mtimeMs) {
      if (!index) return false;
      const row = index.lookupUtf8(path, start, end);
      if (row < 0 || !unchangedFile(index, row, size, mtimeMs, inode)) return false;
      index.markMet(row);
      taken++;
      return true;
    },
  };
  // The last consistent scan's mark: when find's walk comes out the same (walk-digest.ts) and no row
  // changed since (scan-marks-store.ts), every file would compare unchanged: nothing to read or write.
  const { gen, mark } = ctx.marks.begin(folder.id);
  const asked = markAsked(folder);
  // Counted once, for both: whether find is worth starting, and the size of the index.
  const rows = ctx.files.countIn(folder.id);
  const walk = listTree(
    folder.path,
    ignored.test,
    (path, code) =>
      ctx.events.emit('error', {
        folderId: folder.id,
        code: 'FOLDER-UNREADABLE',
        message: `The folder ${path} could not be read (${code}).`,
      }),
    rows,
    folder,
    knownFiles,
    mark ? { asked, expect: mark.digest } : { asked },
  );
  if (mark && walk.sameAsMark && (await walk.sameAsMark)) {
    ctx.ignored.restore(folder.id, mark.ignored, ctx.now());
    return { files: mark.files, ok: true, sameAsMark: true };
  }
  // The walk starts now (find, in its own process) and goes on while the rows are read: its output
  // waits in its file (find-walk.ts) and the read gives the event loop a turn between pages. After a
  // mark that did not match, find has ended already and its output is read again from its start.
  const first = walk.batches.next();
  let known: ScanIndex;
  try {
    // The rows as the last run left them, by path; the walk marks each path it meets, so what is
    // left unmet at the end is gone.
    known = await ctx.files.scanIndex(folder.id, rows);
    index = known;
  } catch (e) {
    first.catch(() => undefined);
    await walk.batches.return(undefined);
    throw e;
  }
  try {
    const result = await compareWithDisk(ctx, folder, known, walk, first, signal);
    const files = result.files + taken;
    // Only a whole walk replaces the list: a cancelled one saw part of the folder.
    if (result.ok) {
      ignored.finish(ctx.now());
      const digest = walk.digest();
      const list = ctx.ignored.get(folder.id);
      // Kept only if no row changed since the walk began (this scan's own writes included).
      if (digest && list) ctx.marks.save(folder.id, gen, { digest, files, ignored: JSON.stringify(list) });
    }
    return { ...result, files };
  } finally {
    index = null;
    known.release();
  }
}

async function compareWithDisk(
  ctx: SyncContext,
  folder: Folder,
  known: ScanIndex,
  walk: TreeWalk,
  first: Promise<IteratorResult<Listed[]>>,
  signal: AbortSignal | undefined,
): Promise<ScanResult> {
  const record = ctx.db.transaction((items: { name: string; seen: Inspection; known: boolean }[]) => {
    // A known row is read whole again by observe(); for a new path there is nothing to read.
    for (const it of items) observe(ctx, folder, it.name, it.seen, it.known ? undefined : null);
  });
  let files = 0;
  let walked = false;
  try {
    for (let next = await first; !next.done; next = await walk.batches.next()) {
      if (signal?.aborted) return { files, ok: false };
      const changed: { name: string; seen: Inspection; known: boolean }[] = [];
      for (const { name, seen } of next.value) {
        const row = known.lookup(name);
        if (row >= 0 && seen.kind !== 'gone') known.markMet(row);
        if (row < 0 || !unchanged(known, row, seen)) changed.push({ name, seen, known: row >= 0 });
      }
      files += next.value.length;
      if (changed.length) record(changed);
    }
    walked = true;
  } finally {
    // Stopped early (cancelled, or a write failed): find must not go on for nobody.
    if (!walked) await walk.batches.return(undefined);
  }
  const complete = walk.complete();

  if (complete) {
    const stillThere = await inspectPath(folder.path, null);
    if (stillThere.kind !== 'dir') {
      folderMissing(ctx, folder);
      return { files, ok: false };
    }
    const gone = known
      .unmet()
      .filter((row) => !NOT_EXPECTED.has(known.state(row)))
      .map((row) => known.id(row));
    for (let i = 0; i < gone.length; i += BATCH) {
      ctx.db.transaction(() => {
        for (const id of gone.slice(i, i + BATCH)) {
          const row = ctx.files.get(id);
          if (row && row.folderId === folder.id) localGone(ctx, folder, row);
        }
      })();
    }
  }
  return { files, ok: complete };
}

/** Rows a scan does not expect on disk: gone already, or busy being read or sent (those steps check). */
const NOT_EXPECTED = new Set<FileState | null>(['DELETED', 'DELETING', ...BUSY_STATES]);

/** What observe() would leave as it is: the common case of a restart, decided without a write. */
function unchanged(known: ScanIndex, row: number, seen: Inspection): boolean {
  const state = known.state(row);
  if (seen.kind === 'skip') return state === 'SKIPPED' && known.reasonCode(row) === seen.code;
  if (seen.kind !== 'file') return false;
  return unchangedFile(known, row, seen.size, seen.mtimeMs, seen.inode);
}

/** unchanged() for a plain file as find or lstat saw it. */
function unchangedFile(known: ScanIndex, row: number, size: number, mtimeMs: number, inode: number): boolean {
  const state = known.state(row);
  if (state === 'HASHING' || state === 'UPLOADING') return true;
  if (state === 'DELETED' || state === 'DELETING') return false;
  if (state === 'FAILED' && known.reasonCode(row) === FOLDER_MISSING) return false;
  return known.sameStat(row, size, mtimeMs, inode);
}

/** What decides a file's fate besides find's output: the folder and its settings (mark-digest input). */
function markAsked(folder: Folder): string {
  return JSON.stringify([folder.path, folder.bucket, folder.ignore, folder.mode, folder.followOutsideLinks]);
}
