import { join } from 'node:path';
import type { SyncEngine } from '../../core/sync/engine';
import { READ_FAILURES } from '../../core/sync/local/inspect';

/** Something of a synced folder whose bytes could not be read: a file, a folder, or a whole root. */
export interface Unreadable {
  path: string;
  code: string;
  message: string;
}

/**
 * What `sync --once` could not read: rows skipped for a read failure (files and the folders standing
 * for theirs), plus folder errors no row stands for (a root that cannot be listed), collected meanwhile.
 */
export function unreadableOf(engine: SyncEngine, folderErrors: readonly Unreadable[]): Unreadable[] {
  const roots = new Map(engine.listFolders().map((f) => [f.id, f.path]));
  const out: Unreadable[] = [...folderErrors];
  let afterId = 0;
  for (;;) {
    const rows = engine.listFiles({ state: 'SKIPPED', afterId, limit: 500 });
    if (rows.length === 0) break;
    afterId = rows[rows.length - 1]!.id;
    for (const r of rows) {
      if (r.reasonCode === null || !READ_FAILURES.includes(r.reasonCode)) continue;
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
  const head = `Could not be read (${items.length}); these are not synced:`;
  return [head, ...items.map((u) => `  ${u.path}  ${u.code}  ${u.message}`)].join('\n');
}
