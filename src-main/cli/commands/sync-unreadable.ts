import { join } from 'node:path';
import { FOUND_NOT_SYNCED, type SyncEngine } from '../../core';

/** Something of a synced folder that was found and is not synced: a file, a folder, or a whole root. */
export interface Unreadable {
  path: string;
  code: string;
  message: string;
}

/**
 * What `sync --once` found and could not sync: rows skipped for a read failure (files and the folders
 * standing for theirs) or a name not in UTF-8, plus folder errors no row stands for (a root that cannot
 * be listed), collected meanwhile. With `folderId`, that folder's rows only.
 */
export function unreadableOf(
  engine: SyncEngine,
  folderErrors: readonly Unreadable[],
  folderId?: number,
): Unreadable[] {
  const roots = new Map(engine.listFolders().map((f) => [f.id, f.path]));
  const out: Unreadable[] = [...folderErrors];
  let afterId = 0;
  for (;;) {
    const rows = engine.listFiles({
      state: 'SKIPPED',
      afterId,
      limit: 500,
      ...(folderId !== undefined ? { folderId } : {}),
    });
    if (rows.length === 0) break;
    afterId = rows[rows.length - 1]!.id;
    for (const r of rows) {
      if (r.reasonCode === null || !FOUND_NOT_SYNCED.includes(r.reasonCode)) continue;
      out.push({
        path: join(roots.get(r.folderId) ?? '', r.name),
        code: r.reasonCode,
        message: r.reason ?? '',
      });
    }
  }
  return out;
}

/** One line per path for people: the path, the code, and why. */
export function unreadableLines(items: readonly Unreadable[]): string {
  const head = `Found and not synced (${items.length}): could not be read, or named in a way the service cannot take:`;
  return [head, ...items.map((u) => `  ${u.path}  ${u.code}  ${u.message}`)].join('\n');
}
