import { useState } from 'react';
import type { EntryLinksView } from '../../../src-shared/contract/links';
import { call } from '../../api/core-ref';
import { Icon } from '../../components/Icon';
import { useUi } from '../../stores/ui-store';
import { brokenLinks } from './entry-links';

/** The list's mark on an entry whose cited file is gone or has a newer version. */
export function EntryLinkBadge({ links }: { links: EntryLinksView | undefined }) {
  const broken = brokenLinks(links);
  if (broken.length === 0) return null;
  const replaced = broken.every((l) => l.status === 'REPLACED');
  return (
    <span className={`badge ${replaced ? 'warn' : 'danger'}`} title="A cited file is no longer at this URL">
      <Icon name="link" /> {replaced ? 'Old link' : 'Dead link'}
    </span>
  );
}

/**
 * Above the editor: which cited URLs no longer answer, in a sentence, and "Replace with the current
 * URL" when the file has a newer version. The fix is an edit like any other (kept here first, sent by
 * the outbox), so it works offline.
 */
export function EntryLinkNotice({ links }: { links: EntryLinksView | undefined }) {
  const [busy, setBusy] = useState(false);
  const broken = brokenLinks(links);
  if (!links || broken.length === 0) return null;
  const replaced = broken.filter((l) => l.status === 'REPLACED');
  const gone = broken.filter((l) => l.status === 'GONE');
  return (
    <div className={`banner ${gone.length ? 'danger' : 'warn'} kb-link-notice`} role="status">
      <Icon name="link" />
      <div className="body stack">
        {replaced.length > 0 ? (
          <span>
            This entry cites {replaced.length === 1 ? 'a file that has' : 'files that have'} a newer version:
            the bot answers with a dead link until it points at the current URL.
            {replaced.map((l) => (
              <span key={l.url} className="small mono kb-link-url">
                {l.url} → {l.currentUrl}
              </span>
            ))}
          </span>
        ) : null}
        {gone.length > 0 ? (
          <span>
            This entry cites {gone.length === 1 ? 'a file that is' : 'files that are'} no longer on the
            service; edit the entry to change or remove the link.
            {gone.map((l) => (
              <span key={l.url} className="small mono kb-link-url">
                {l.url}
              </span>
            ))}
          </span>
        ) : null}
        {replaced.length > 0 ? (
          <div>
            <button
              type="button"
              className="btn primary small"
              disabled={busy}
              onClick={async () => {
                setBusy(true);
                const r = await call('links.fix', { entryId: links.entryId });
                setBusy(false);
                if (r.ok) useUi.getState().toast('info', `"${r.value.title}" now links to the current file.`);
                else useUi.getState().toast('error', `${r.error.message} (${r.error.code})`);
              }}
            >
              Replace with the current URL
            </button>
          </div>
        ) : null}
      </div>
    </div>
  );
}
