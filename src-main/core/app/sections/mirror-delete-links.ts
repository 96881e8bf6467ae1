import type { EntryText } from '../../remote-index/link-integrity';
import { activityStore } from '../../sync/state/activity-store';
import type { AppContext } from '../context';

/** A sync row whose remote copy the engine deletes (or deleted) after a local delete in a mirror folder. */
interface MirrorDelete {
  id: number;
  folderId: number;
  name: string;
  remoteUrl: string;
}

// The deleter's own words for a mirror delete (sync/upload/deleter.ts); DELETING rows are on their way.
const MIRROR_DELETES = `SELECT id, folder_id AS folderId, name, remote_url AS remoteUrl FROM sync_files
   WHERE remote_url IS NOT NULL
     AND (state = 'DELETING' OR (state = 'DELETED' AND reason LIKE '%remote copy was deleted (mirror folder)%'))`;

export const BROKEN_LINK_KIND = 'broken-link';

/** The URLs of remote copies deleted after a local delete in a mirror folder: known gone. */
export function mirrorDeletedUrls(ctx: AppContext): Set<string> {
  return new Set((ctx.db.prepare(MIRROR_DELETES).all() as MirrorDelete[]).map((r) => r.remoteUrl));
}

/**
 * A mirror folder's local delete deletes the remote copy, with no dialog on the way (the file is
 * gone from the disk already). Entries citing it would answer with a dead link: each such delete
 * gets one Activity entry naming the entries, written when the row is seen (the engine's file
 * events), and the entries are flagged GONE by the link check.
 */
export function watchMirrorDeletes(ctx: AppContext, entries: () => EntryText[]): () => void {
  const activity = activityStore(ctx.db);
  const warned = new Set<number>();
  const already = ctx.db.prepare(
    'SELECT 1 FROM sync_activity WHERE kind = ? AND file_id = ? AND message LIKE ?',
  );

  function scan(): void {
    const rows = ctx.db.prepare(MIRROR_DELETES).all() as MirrorDelete[];
    if (rows.length === 0) return;
    let all: EntryText[] | null = null;
    for (const r of rows) {
      if (warned.has(r.id)) continue;
      warned.add(r.id);
      all ??= entries();
      const citing = all.filter((e) => `${e.title}\n${e.description}`.includes(r.remoteUrl));
      if (citing.length === 0) continue;
      if (already.get(BROKEN_LINK_KIND, r.id, `%${r.remoteUrl}%`)) continue;
      const names = citing.map((e) => `“${e.title}”`).join(', ');
      const a = activity.add(
        BROKEN_LINK_KIND,
        `${r.name} was deleted in a mirror folder, so its remote copy goes too: the knowledge ${
          citing.length === 1 ? 'entry' : 'entries'
        } ${names} link to it (${r.remoteUrl}). Edit ${citing.length === 1 ? 'it' : 'them'} in Knowledge.`,
        { folderId: r.folderId, fileId: r.id },
      );
      ctx.bus.emit('activity.added', { id: a.id, at: a.at, level: 'warn', message: a.message });
    }
  }

  scan();
  return ctx.bus.subscribe((e) => {
    if (e.event === 'sync.changed') scan();
  });
}
