import type { IndexStatus } from '../../../src-shared/contract/remote-index';
import type { ApiError } from '../service/api-error';
import type { FileApiClient } from '../service/file-api-client';
import type { AccountIndex } from './remote-index';
import { waitUnlessAborted } from './wait';

/** How often the app reads the listing's new pages by itself (one request when nothing changed). */
export const DEFAULT_REFRESH_EVERY_MS = 5 * 60_000;

export interface KeeperOptions {
  index: AccountIndex;
  client: FileApiClient;
  refreshEveryMs?: number;
  /** Told after each refresh and after each page of a walk (the Files view shows the new rows). */
  onChange?: (status: IndexStatus) => void;
  /** A refusal that needs the user (401, account closed): the keeper has stopped. */
  onStopped?: (error: ApiError) => void;
  now?: () => number;
}

/**
 * What keeps an account's index fresh while the app runs, all in the budget's background lane (after
 * uploads and user actions, at most its share of the window): a refresh every few minutes, and the
 * full walk when it is due (at most daily; a walk under way resumes). A user's own refresh (the Files
 * view's button) calls `index.refresh` in the user lane beside it. `stop()` ends it at once; the walk
 * keeps its place for the next start.
 */
export function keepIndexFresh(o: KeeperOptions): { stop(): Promise<void> } {
  const every = o.refreshEveryMs ?? DEFAULT_REFRESH_EVERY_MS;
  const now = o.now ?? Date.now;
  const controller = new AbortController();
  const { signal } = controller;
  let failures = 0;

  const stopsFor = (e: ApiError) => e.reaction === 'auth' || e.reaction === 'closed';

  const loop = (async () => {
    while (!signal.aborted) {
      const r = await o.index.refresh(o.client, { lane: 'background', signal });
      if (signal.aborted) return;
      if (!r.ok && stopsFor(r.error)) return o.onStopped?.(r.error);
      failures = r.ok ? 0 : failures + 1;
      if (r.ok) o.onChange?.(o.index.status());
      if (r.ok && o.index.walkDue(now())) {
        const w = await o.index.walk(o.client, {
          signal,
          now,
          onPage: () => o.onChange?.(o.index.status()),
        });
        if (!w.ok && stopsFor(w.error)) return o.onStopped?.(w.error);
      }
      // After failures (offline, the service down) wait longer, up to four times the interval.
      await waitUnlessAborted(every * Math.min(4, 2 ** failures), signal);
    }
  })();

  return {
    async stop() {
      controller.abort();
      await loop;
    },
  };
}
