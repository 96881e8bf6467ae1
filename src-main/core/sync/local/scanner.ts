import { opendir } from 'node:fs/promises';
import { join } from 'node:path';
import type { SyncContext } from '../context';
import type { Folder } from '../types';
import { ignoreRules } from './ignore-rules';
import { type Inspection, inspectPath } from './inspect';
import { FOLDER_MISSING, folderMissing, localGone, observe } from './observe';

const BATCH = 500;

export interface ScanResult {
  files: number;
  ok: boolean;
}

/**
 * Walks a folder and records every file in its row, BATCH rows per transaction; nothing holds the
 * whole tree in memory. Rows not seen by the walk were deleted while nobody watched, but only when
 * the walk read every subfolder: a folder that could not be read deletes nothing.
 */
export async function scanFolder(
  ctx: SyncContext,
  folder: Folder,
  signal?: AbortSignal,
): Promise<ScanResult> {
  const root = await inspectPath(folder.path);
  if (root.kind !== 'dir') {
    folderMissing(ctx, folder);
    return { files: 0, ok: false };
  }
  if (folder.problem) {
    ctx.folders.update(folder.id, { problem: null });
    ctx.log('folder-back', `The folder ${folder.path} is readable again.`, { folderId: folder.id });
  }
  const ignored = ignoreRules(folder.ignore);
  const gen =
    (ctx.db
      .prepare<[number], { g: number | null }>(
        'SELECT MAX(scan_gen) AS g FROM sync_files WHERE folder_id = ?',
      )
      .get(folder.id)?.g ?? 0) + 1;
  let batch: { name: string; seen: Inspection }[] = [];
  let files = 0;
  let complete = true;
  const flush = ctx.db.transaction((items: { name: string; seen: Inspection }[]) => {
    for (const it of items) observe(ctx, folder, it.name, it.seen, gen);
  });

  const stack: string[] = [''];
  while (stack.length > 0) {
    if (signal?.aborted) return { files, ok: false };
    const rel = stack.pop()!;
    let dir: Awaited<ReturnType<typeof opendir>>;
    try {
      dir = await opendir(join(folder.path, rel), { bufferSize: 256 });
    } catch (e) {
      complete = false;
      ctx.events.emit('error', {
        folderId: folder.id,
        code: 'FOLDER-UNREADABLE',
        message: `The folder ${join(folder.path, rel)} could not be read (${(e as NodeJS.ErrnoException).code ?? e}).`,
      });
      continue;
    }
    for await (const entry of dir) {
      const name = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!ignored(name, true)) stack.push(name);
        continue;
      }
      if (ignored(name)) continue;
      batch.push({ name, seen: await inspectPath(join(folder.path, name)) });
      files++;
      if (batch.length >= BATCH) {
        flush(batch);
        batch = [];
      }
    }
  }
  flush(batch);

  if (complete) {
    const stillThere = await inspectPath(folder.path);
    if (stillThere.kind !== 'dir') {
      folderMissing(ctx, folder);
      return { files, ok: false };
    }
    for (;;) {
      const gone = ctx.files.unseen(folder.id, gen, BATCH);
      if (gone.length === 0) break;
      ctx.db.transaction(() => {
        for (const row of gone) {
          ctx.files.markSeen(row.id, gen);
          if (row.reasonCode === FOLDER_MISSING || row.state !== 'DELETED') localGone(ctx, folder, row);
        }
      })();
    }
  }
  return { files, ok: complete };
}
