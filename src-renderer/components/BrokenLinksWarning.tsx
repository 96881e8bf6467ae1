import { useEffect, useState } from 'react';
import type { EntryLinksView } from '../../src-shared/contract/links';
import { call } from '../api/core-ref';

/**
 * For a delete confirmation (one file or many): the knowledge entries that cite any of these files,
 * named, because the bot would answer with a dead link after the delete. Nothing when none does.
 */
export function BrokenLinksWarning({ fileIds }: { fileIds: readonly number[] }) {
  const [entries, setEntries] = useState<EntryLinksView[]>([]);
  const key = fileIds.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the ids' text is the dependency
  useEffect(() => {
    let current = true;
    void call('links.brokenBy', { fileIds: [...fileIds] }).then((r) => {
      if (current) setEntries(r.ok ? r.value.entries : []);
    });
    return () => {
      current = false;
    };
  }, [key]);
  if (entries.length === 0) return null;
  const names = entries.map((e) => `“${e.title}”`).join(', ');
  return (
    <p className="error-text" role="alert">
      {entries.length === 1 ? 'The knowledge entry' : `${entries.length} knowledge entries`} {names}{' '}
      {entries.length === 1 ? 'links' : 'link'} to {fileIds.length === 1 ? 'this file' : 'these files'}: after
      the delete the bot answers with a dead link until {entries.length === 1 ? 'it is' : 'they are'} edited.
    </p>
  );
}
