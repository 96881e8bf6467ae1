import { DAY_MS } from '../../../src-shared/domain/ist-time';
import { err, ok, type Result } from '../../../src-shared/errors';
import type { Db } from '../../shared-node/sqlite';
import type { ApiError } from '../service/api-error';
import type { FileApiClient } from '../service/file-api-client';
import type { Lane } from '../service/request-budget';
import type { IndexState, IndexStore } from './index-store';
import { listingReader } from './listing-pages';
import { applyPage } from './refresh';

/** A full walk runs at most once a day (a walk under way is always resumed). */
export const WALK_INTERVAL_MS = DAY_MS;

export interface WalkOptions {
  /** Default 'background': at most the budget's background share (5%), after uploads and user actions. */
  lane?: Lane;
  /** Stops the walk where it is; its place is kept for the next run. */
  signal?: AbortSignal;
  /** Stop after about this many requests (the place is kept). */
  maxRequests?: number;
  onPage?: (p: { page: number; requests: number; removed: number }) => void;
  now?: () => number;
}

export interface WalkSummary {
  /** Requests spent: listing pages and single-file checks. */
  requests: number;
  pages: number;
  /** Files found deleted elsewhere and dropped from the index. */
  removed: number;
  /** Files the index did not hold yet. */
  added: number;
  /** False when stopped (signal, maxRequests) before the end: the next run goes on from there. */
  finished: boolean;
}

export function walkDue(state: IndexState, now: number, intervalMs = WALK_INTERVAL_MS): boolean {
  return state.walk !== null || state.walkFinishedAt === null || now - state.walkFinishedAt >= intervalMs;
}

/**
 * The slow full walk that finds files deleted elsewhere (another device, the service's own console):
 * every listing page from the newest to the oldest, in the background lane, its place kept after
 * every page so that a restart resumes it. Inside a page's id range the listing is exact, so an
 * indexed id the page lacks is gone; an indexed id between two pages may have been passed over by a
 * shift (a delete elsewhere while walking), so it is checked alone (GET /files/{id}: 410 is gone).
 */
export async function walkIndex(
  db: Db,
  store: IndexStore,
  accountId: number,
  client: FileApiClient,
  o: WalkOptions = {},
): Promise<Result<WalkSummary, ApiError>> {
  const now = o.now ?? Date.now;
  const lane = o.lane ?? 'background';
  const limit = o.maxRequests ?? Number.POSITIVE_INFINITY;
  const summary: WalkSummary = { requests: 0, pages: 0, removed: 0, added: 0, finished: false };
  const st = store.state(accountId);
  let walk = st.walk ?? { top: null, low: null, page: 1, startedAt: now() };
  store.setWalk(accountId, walk);
  const reader = listingReader(
    client,
    { page: walk.page, below: walk.low },
    {
      lane,
      ...(o.signal ? { signal: o.signal } : {}),
      onRequest: () => {
        summary.requests++;
      },
    },
  );

  const check = async (id: number): Promise<ApiError | null> => {
    summary.requests++;
    const r = await client.getFile(id, { lane, ...(o.signal ? { signal: o.signal } : {}) });
    if (r.ok) {
      if (store.put(accountId, [r.value]) > 0) summary.added++;
      return null;
    }
    if (r.error.code === 'GONE') {
      if (store.remove(accountId, id)) summary.removed++;
      return null;
    }
    return r.error;
  };

  const finish = (oldest: number | null) => {
    db.transaction(() => {
      if (oldest === null) store.clearFiles(accountId);
      else summary.removed += store.removeMissingBetween(accountId, 0, oldest - 1, new Set());
      store.finishWalk(accountId, now());
      // Every live file up to the walk's first newest is in the index now.
      if (walk.top !== null) store.raiseWatermark(accountId, walk.top);
    })();
    summary.finished = true;
    return ok(summary);
  };

  for (;;) {
    if (o.signal?.aborted || summary.requests >= limit) return ok(summary);
    const r = await reader.next();
    if (!r.ok) return r.error.code === 'ABORTED' ? ok(summary) : err(r.error);
    const page = r.page;
    // The end: what the index holds below the oldest file listed is gone (a file pushed past the end
    // by an upload at that instant would be found again by the next walk).
    if (page === null) return finish(walk.low);
    const applied = applyPage(db, store, accountId, page);
    summary.pages++;
    summary.added += applied.added;
    summary.removed += applied.removed;
    if (page.gap) {
      for (const id of store.idsBetween(accountId, page.gap.above, page.gap.below)) {
        const failed = await check(id);
        if (failed) return failed.code === 'ABORTED' ? ok(summary) : err(failed);
      }
    }
    walk = {
      top: walk.top ?? page.newest,
      low: walk.low === null ? page.oldest : Math.min(walk.low, page.oldest),
      page: page.page + 1,
      startedAt: walk.startedAt,
    };
    store.setWalk(accountId, walk);
    o.onPage?.({ page: page.page, requests: summary.requests, removed: summary.removed });
    if (page.last) return finish(walk.low);
  }
}
