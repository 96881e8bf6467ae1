import { useEffect, useRef, useState } from 'react';
import type { KbEntryView } from '../../../src-shared/contract/kb';
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
export function useEntryLinks(
  botId: number | undefined,
  entries: readonly KbEntryView[] | undefined,
): Map<number, EntryLinksView> {
  const [links, setLinks] = useState(new Map<number, EntryLinksView>());
  // The answer as it came, to keep the same map when it says the same (every upload asks again);
  // the first map is empty, as an answer of no entries is.
  const said = useRef('[]');
  const filesTick = useSync((s) => s.overview);
  // The remote index's status moves with every refresh, walk and change this app made.
  const listing = useIndexView((s) => s.status);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the entries and the file events are the triggers
  useEffect(() => {
    if (botId === undefined) {
      said.current = '[]';
      return setLinks(new Map());
    }
    let current = true;
    void call('links.check', { botId }).then((r) => {
      if (!current || !r.ok) return;
      const text = JSON.stringify(r.value.entries);
      if (text === said.current) return;
      said.current = text;
      setLinks(new Map(r.value.entries.map((e) => [e.entryId, e])));
    });
    return () => {
      current = false;
    };
  }, [botId, entries, filesTick, listing]);
  return links;
}
