import { useEffect, useState } from 'react';
import type { KbSnapshot } from '../../../src-shared/contract/kb';
import type { EntryLinksView } from '../../../src-shared/contract/links';
import { call } from '../../api/core-ref';
import { useSync } from '../../stores/sync-store';
import { useIndexView } from '../files/index-store';

/** An entry's links that are no longer live (what the view flags). */
export const brokenLinks = (e: EntryLinksView | undefined) =>
  e?.links.filter((l) => l.status === 'GONE' || l.status === 'REPLACED') ?? [];

/**
 * The bot's entries that cite this account's files, each link's status, by entry id. Asked again
 * when the entries change and when files do (the engine's transitions, the remote index): a
 * changed file is replaced by a new version and its old URL dies without any entry changing.
 */
export function useEntryLinks(snapshot: KbSnapshot | null): Map<number, EntryLinksView> {
  const [links, setLinks] = useState(new Map<number, EntryLinksView>());
  const filesTick = useSync((s) => s.overview);
  // The remote index's status moves with every refresh, walk and change this app made.
  const listing = useIndexView((s) => s.status);
  const botId = snapshot?.bot.id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the snapshot and the file events are the triggers
  useEffect(() => {
    if (botId === undefined) return setLinks(new Map());
    let current = true;
    void call('links.check', { botId }).then((r) => {
      if (current && r.ok) setLinks(new Map(r.value.entries.map((e) => [e.entryId, e])));
    });
    return () => {
      current = false;
    };
  }, [botId, snapshot, filesTick, listing]);
  return links;
}
