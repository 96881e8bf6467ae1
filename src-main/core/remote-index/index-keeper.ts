import type { IndexStatus } from '../../../src-shared/contract/remote-index';
import type { ApiError } from '../service/api-error';
import { type Clock, realClock } from '../service/clock';
import type { FileApiClient } from '../service/file-api-client';
import { createPacer, done, retry } from '../service/pacer';
import { indexRefreshBackoff } from '../service/retry-policy';
import type { AccountIndex } from './remote-index';
import { type IndexWatch, nextWatchStep, type WatchAnswer } from './shared-watch';

/**
 * How often the app reads the listing's first page by itself: one request when nothing changed, and
 * its `meta.total` is the signal that a file went elsewhere (issue 31: a delete made elsewhere is seen
 * within 90 s, at most 2 requests a minute while idle; 45 s is 1.3 a minute and leaves 45 s for the
 * bisection that finds which file went). docs/remote-index.md, "Files gone from the service".
 */
export const DEFAULT_REFRESH_EVERY_MS = 45_000;

export interface KeeperOptions {
  index: AccountIndex;
  client: FileApiClient;
  refreshEveryMs?: number;
  /** Told after each refresh and after each page of a walk (the Files view shows the new rows). */
  onChange?: (status: IndexStatus) => void;
  /** A refusal that needs the user (401, account closed): the keeper has stopped. */
  onStopped?: (error: ApiError) => void;
  now?: () => number;
  /** What the waits between refreshes and after a failed one run on (tests move it by hand). */
  clock?: Clock;
  /**
   * In an office, the watch this account shares with the other desks of it (shared-watch.ts): the keeper
   * skips its own read while a peer's fresh answer agrees with its own, and reads at least every 2 periods.
   */
  watch?: IndexWatch | null;
}

/**
 * What keeps an account's index fresh while the app runs, in the budget's background lane (after
 * uploads and user actions, at most its share of the window): a refresh every 45 s (its bisection for
 * files deleted elsewhere, rare and short, in the user lane), and the
 * full walk when it is due (at most daily; a walk under way resumes). A user's own refresh (the Files
 * view's button) calls `index.refresh` in the user lane beside it. `stop()` ends it at once; the walk
 * keeps its place for the next start.
 */
export function keepIndexFresh(o: KeeperOptions): { stop(): Promise<void> } {
  const every = o.refreshEveryMs ?? DEFAULT_REFRESH_EVERY_MS;
  const clock = o.clock ?? realClock;
  const now = o.now ?? (() => clock.now());
  const controller = new AbortController();
  const { signal } = controller;
  // A refresh that failed (offline, the service down) is asked again after a longer wait.
  const pacer = createPacer({ policy: indexRefreshBackoff(every), clock });

  const watch = o.watch ?? null;
  /** This desk's last own page-1 answer, on the watch's clock. */
  let own = null as { at: number; answer: WatchAnswer } | null;

  const stopsFor = (e: ApiError) => e.reaction === 'auth' || e.reaction === 'closed';

  async function refreshed(): Promise<boolean> {
    const r = await pacer.call(
      async () => {
        const r = await o.index.refresh(o.client, { lane: 'background', signal });
        return r.ok || stopsFor(r.error) || signal.aborted ? done(r) : retry(r);
      },
      { signal },
    );
    if (signal.aborted) return false;
    if (!r.ok) {
      o.onStopped?.(r.error);
      return false;
    }
    o.onChange?.(o.index.status());
    if (watch) {
      own = {
        at: watch.now(),
        answer: { total: r.value.listedTotal ?? 0, newest: watch.hash(r.value.listedNewest) },
      };
      watch.say({ ...own.answer, readAt: own.at });
    }
    // The one-request signal: the listing counts fewer files than the index holds, so some were
    // deleted elsewhere (another install, the dashboard, a script). Found by bisection at once, in a
    // few requests; when that cannot settle it, the walk goes now instead of at its daily time.
    // The bisection goes in the user lane (after uploads, not under background's 5% cap): it is rare
    // and short (about log2(pages) reads), and under the cap its sixth request waited for the next
    // minute, past the 90 s a folder may say Live over a deleted file (issue 31).
    let walkNow = false;
    const listed = r.value.listedTotal;
    if (r.value.complete && listed !== null && o.index.status().count > listed) {
      const found = await o.index.findDeleted(o.client, { lane: 'user', signal });
      if (signal.aborted) return false;
      if (!found.ok && stopsFor(found.error)) {
        o.onStopped?.(found.error);
        return false;
      }
      if (found.ok && found.value.removed > 0) o.onChange?.(o.index.status());
      walkNow = !found.ok || !found.value.settled;
    }
    if (!walkNow && !o.index.walkDue(now())) return true;
    const w = await o.index.walk(o.client, {
      signal,
      now,
      onPage: () => o.onChange?.(o.index.status()),
    });
    if (!w.ok && stopsFor(w.error)) {
      o.onStopped?.(w.error);
      return false;
    }
    return true;
  }

  /** Sleeps `ms`, or less when a peer says a newer answer (its word may be a delete to look for now). */
  async function waitOrWord(ms: number): Promise<void> {
    const w = new AbortController();
    const end = () => w.abort();
    signal.addEventListener('abort', end, { once: true });
    const off = watch?.onWord(end);
    try {
      await clock.sleep(Math.max(0, ms), w.signal);
    } catch {
      // A word or the stop: the loop looks again (and ends on the stop).
    } finally {
      off?.();
      signal.removeEventListener('abort', end);
    }
  }

  const loop = (async () => {
    try {
      if (!watch) {
        while (await refreshed()) await clock.sleep(every, signal);
        return;
      }
      const w = watch;
      while (!signal.aborted) {
        const step = nextWatchStep({
          now: w.now(),
          self: w.self,
          ownAt: own?.at ?? null,
          mine: own?.answer ?? null,
          peers: w.peers(),
          every,
        });
        if (step.kind === 'wait') await waitOrWord(step.ms);
        else if (!(await refreshed())) return;
      }
    } catch (e) {
      // stop() aborts a wait: the loop ends there; anything else is a bug to see.
      if (!signal.aborted) throw e;
    }
  })();

  return {
    async stop() {
      controller.abort();
      await loop;
      watch?.say(null);
    },
  };
}
