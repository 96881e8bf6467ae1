import type { RemoteFile } from '../../../src-shared/api/file-hosting';
import { PER_PAGE_MAX } from '../../../src-shared/domain/limits';
import { err, ok, type Result } from '../../../src-shared/errors';
import type { Db } from '../../shared-node/sqlite';
import type { ApiError } from '../service/api-error';
import type { FileApiClient } from '../service/file-api-client';
import type { Lane } from '../service/request-budget';
import type { IndexStore } from './index-store';
import { applyPage } from './refresh';

export interface FindDeletedOptions {
  /** Default 'background': the keeper's share of the budget. */
  lane?: Lane;
  signal?: AbortSignal;
  /** Give up (and leave it to the walk) after this many requests. Default 60. */
  maxRequests?: number;
}

export interface FindDeletedSummary {
  /** Requests spent: listing pages and single-file checks. */
  requests: number;
  /** Files found gone and dropped from the index (noted for the sync rows: `gone`). */
  removed: number;
  /** The index now holds as many files as the listing says: every deletion was found. */
  settled: boolean;
}

/**
 * Which of the indexed files were deleted elsewhere, when the listing's `meta.total` says the index
 * holds more files than the service (the keeper's one-request signal). The listing is newest first by
 * id, 100 a page, so page p starts after (p-1)*100 live files: if the index holds more files newer than
 * page p's first one than that, some of them were deleted. That excess only grows down the pages, so a
 * bisection finds the first page where it appears in about log2(pages) reads (7 for 10,000 files);
 * the deleted ids lie between the page before it and its first file, where the range rule drops them
 * (and a lone id between two pages is asked for, 410 being gone). Repeated while the counts differ;
 * each round finds at least one, else it stops and the daily walk is left to do it (`settled` false).
 * Cost: 1 request when nothing went, about log2(pages) + 2 for each place where files went.
 */
export async function findDeleted(
  db: Db,
  store: IndexStore,
  accountId: number,
  client: FileApiClient,
  o: FindDeletedOptions = {},
): Promise<Result<FindDeletedSummary, ApiError>> {
  const lane = o.lane ?? 'background';
  const limit = o.maxRequests ?? 60;
  const summary: FindDeletedSummary = { requests: 0, removed: 0, settled: false };
  const pages = new Map<number, RemoteFile[]>();
  let total = 0;
  let lastPage = 1;

  async function read(p: number): Promise<Result<RemoteFile[], ApiError>> {
    const cached = pages.get(p);
    if (cached) return ok(cached);
    summary.requests++;
    const r = await client.listFiles({
      page: p,
      perPage: PER_PAGE_MAX,
      lane,
      ...(o.signal ? { signal: o.signal } : {}),
    });
    if (!r.ok) return r;
    total = r.value.meta.total;
    lastPage = Math.max(1, r.value.meta.last_page);
    pages.set(p, r.value.files);
    return ok(r.value.files);
  }

  /** Files deleted among the indexed ones newer than page p's first file (Infinity past the end: all). */
  async function excessAt(p: number): Promise<Result<number, ApiError>> {
    const files = await read(p);
    if (!files.ok) return files;
    const first = files.value[0];
    if (!first) return ok(store.count(accountId) - total);
    return ok(store.countAbove(accountId, first.id) - (p - 1) * PER_PAGE_MAX);
  }

  /** An indexed id the listing passed over: asked alone (410 is gone, a reply puts it back). */
  async function check(id: number): Promise<ApiError | null> {
    summary.requests++;
    const r = await client.getFile(id, { lane, ...(o.signal ? { signal: o.signal } : {}) });
    if (r.ok) {
      store.put(accountId, [r.value]);
      return null;
    }
    if (r.error.code === 'GONE') {
      if (store.remove(accountId, id)) summary.removed++;
      return null;
    }
    return r.error;
  }

  const first = await read(1);
  if (!first.ok) return err(first.error);
  for (let round = 0; round < 50; round++) {
    if (store.count(accountId) <= total) {
      summary.settled = true;
      return ok(summary);
    }
    if (summary.requests >= limit || o.signal?.aborted) return ok(summary);
    const before = summary.removed;
    const top = await excessAt(1);
    if (!top.ok) return err(top.error);
    if (top.value > 0) {
      // Indexed files newer than anything listed: deleted, or uploaded since page 1 was read.
      const newest = pages.get(1)![0]?.id ?? 0;
      for (const id of store.idsBetween(accountId, newest, Number.MAX_SAFE_INTEGER)) {
        const failed = await check(id);
        if (failed) return err(failed);
      }
    } else {
      // excess(lo) = 0 < excess(hi); hi past the last page stands for "below the oldest file listed".
      let lo = 1;
      let hi = lastPage + 1;
      while (hi - lo > 1 && summary.requests < limit) {
        const mid = Math.floor((lo + hi) / 2);
        const e = await excessAt(mid);
        if (!e.ok) return err(e.error);
        if (e.value > 0) hi = mid;
        else lo = mid;
      }
      const page = pages.get(lo)!;
      if (page.length > 0) {
        const oldest = page.at(-1)!.id;
        summary.removed += applyPage(db, store, accountId, {
          page: lo,
          files: page,
          newest: page[0]!.id,
          oldest,
          gap: null,
          last: page.length < PER_PAGE_MAX,
          total,
        }).removed;
        // Between this page's oldest file and the next page's first (or the end of the listing).
        const next = hi <= lastPage ? (pages.get(hi)?.[0]?.id ?? 0) : 0;
        for (const id of store.idsBetween(accountId, next, oldest)) {
          const failed = await check(id);
          if (failed) return err(failed);
        }
      }
    }
    // Found nothing this round: the listing moved under us, or more went than a bisection can see.
    if (summary.removed === before) return ok(summary);
  }
  return ok(summary);
}
