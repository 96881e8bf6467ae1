import type { SyncContext } from '../context';
import type { Folder } from '../types';
import type { WatchChange } from '../watch/watch-folder';
import { ignoreRules } from './ignore-rules';
import { type Inspection, inspectPath } from './inspect';
import { localGone, observe } from './observe';

/**
 * Records one batch of what a folder's watcher reported (path -> what happened), as the scanner records
 * what a walk saw: ignored paths are dropped, each path is inspected within the folder's link scope, the
 * rows change in one transaction, and paths seen appearing or changing go before the scan's backlog
 * (engine/priority.ts). A directory cannot be taken from one event (a folder moved in arrives as one):
 * `needScan` asks the caller for a scan of the folder.
 */
export async function applyChanges(
  ctx: SyncContext,
  folder: Folder,
  changes: ReadonlyMap<string, WatchChange['kind']>,
): Promise<{ needScan: boolean }> {
  const ignored = ignoreRules(folder.ignore);
  const seen: { name: string; insp: Inspection }[] = [];
  let needScan = false;
  for (const [name, kind] of changes) {
    if (
      ignored(name) ||
      name
        .split('/')
        .some((_part, i, all) => i < all.length - 1 && ignored(all.slice(0, i + 1).join('/'), true))
    )
      continue;
    const insp = await inspectPath(`${folder.path}/${name}`, folder);
    // A name that is not UTF-8 arrives with U+FFFD for its odd bytes and opens nothing: the scan
    // reads the folder's names as bytes and names it (local/file-names.ts).
    if (insp.kind === 'gone' && name.includes('\uFFFD')) {
      needScan = true;
      continue;
    }
    if (insp.kind === 'dir') needScan = true;
    else seen.push({ name, insp });
    if (kind === 'delete' || insp.kind === 'gone') {
      // A folder deleted or moved away: the rows under it whose files are gone.
      for (const r of ctx.files.underPath(folder.id, name)) {
        if (r.name !== name && (await inspectPath(`${folder.path}/${r.name}`, folder)).kind === 'gone')
          localGone(ctx, folder, r);
      }
    }
  }
  ctx.db.transaction(() => {
    for (const s of seen) observe(ctx, folder, s.name, s.insp);
    ctx.files.markSeenLive(
      folder.id,
      seen.map((s) => s.name),
      ctx.now(),
    );
  })();
  return { needScan };
}
