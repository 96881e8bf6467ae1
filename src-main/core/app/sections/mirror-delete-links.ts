import type { EntryText } from '../../remote-index/link-integrity';
import { activityStore } from '../../sync/state/activity-store';
import { syncedFiles } from '../../sync/state/synced-files';
import type { AppContext } from '../context';

export const BROKEN_LINK_KIND = 'broken-link';

/**
 * A mirror folder's local delete deletes the remote copy, with no dialog on the way (the file is
 * gone from the disk already). Entries citing it would answer with a dead link: each such delete
 * gets one Activity entry naming the entries, written when the row is seen (the engine's file
 * events), and the entries are flagged GONE by the link check.
 */
export function watchMirrorDeletes(ctx: AppContext, entries: () => EntryText[]): () => void {
  const activity = activityStore(ctx.db);
  const rowsOf = syncedFiles(ctx.db);
  const warned = new Set<number>();

  function scan(): void {
    const rows = rowsOf.mirrorDeletes();
    if (rows.length === 0) return;
    let all: EntryText[] | null = null;
    for (const r of rows) {
      if (warned.has(r.id)) continue;
      warned.add(r.id);
      all ??= entries();
      const citing = all.filter((e) => `${e.title}\n${e.description}`.includes(r.remoteUrl));
      if (citing.length === 0) continue;
      if (activity.mentions(BROKEN_LINK_KIND, r.id, r.remoteUrl)) continue;
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
