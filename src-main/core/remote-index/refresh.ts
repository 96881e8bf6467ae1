import type { RemoteFile } from '../../../src-shared/api/file-hosting';
import { err, ok, type Result } from '../../../src-shared/errors';
import type { Db } from '../../shared-node/sqlite';
import type { ApiError } from '../service/api-error';
import type { FileApiClient } from '../service/file-api-client';
import type { Lane } from '../service/request-budget';
import type { IndexStore } from './index-store';
import { type ListedPage, listingReader } from './listing-pages';

export interface RefreshOptions {
  /** Default 'user': someone asked. A timer's refresh passes 'background'. */
  lane?: Lane;
  signal?: AbortSignal;
  /** Stop after this many listing requests; the next refresh goes on from there. */
  maxRequests?: number;
  /** After each page is in the index (the first rows can be shown after the first). */
  onPage?: (p: { page: number; added: number; requests: number }) => void;
  now?: () => number;
}

export interface RefreshSummary {
  /** Listing requests spent. */
  requests: number;
  /** Files new to the index. */
  added: number;
  /** Files gone from the index (deleted elsewhere, seen inside a page's range). */
  removed: number;
  /** True when the index now holds every file the listing had (false: cut short by maxRequests). */
  complete: boolean;
  /**
   * The listing's `meta.total` at its first page (null when none was read): against the index's count
   * once complete, the one-request sign that files were deleted elsewhere (find-deleted.ts).
   */
  listedTotal: number | null;
  /** The id of the first file of that first page (the account's newest), null when none was read. */
  listedNewest: string | null;
}

/** Puts a page's files in the index and drops the indexed ids its range lacks, in one transaction. */
export function applyPage(db: Db, store: IndexStore, accountId: number, page: ListedPage) {
  return db.transaction(() => {
    const added = store.put(accountId, page.files);
    const present = new Set(page.files.map((f: RemoteFile) => f.id));
    const removed = store.removeMissingBetween(accountId, page.oldest, page.newest, present);
    return { added, removed };
  })();
}

/**
 * Brings the index up to date without listing everything: the listing is newest first, so a refresh
 * reads from page 1 until it reaches what an earlier pass already covered, and stops (five new files:
 * one request). A first refresh, or one after a long time, reads on to the end; it keeps its place
 * after every page (`pass`), so one cut short (a closed app, maxRequests) goes on where it stopped
 * after reading the newer files first.
 */
export async function refreshIndex(
  db: Db,
  store: IndexStore,
  accountId: number,
  client: FileApiClient,
  o: RefreshOptions = {},
): Promise<Result<RefreshSummary, ApiError>> {
  const now = o.now ?? Date.now;
  const lane = o.lane ?? 'user';
  const summary: RefreshSummary = {
    requests: 0,
    added: 0,
    removed: 0,
    complete: false,
    listedTotal: null,
    listedNewest: null,
  };
  const limit = o.maxRequests ?? Number.POSITIVE_INFINITY;
  const readOpts = {
    lane,
    ...(o.signal ? { signal: o.signal } : {}),
    onRequest: () => {
      summary.requests++;
    },
  };
  const apply = (page: ListedPage) => {
    const r = applyPage(db, store, accountId, page);
    summary.added += r.added;
    summary.removed += r.removed;
    o.onPage?.({ page: page.page, added: r.added, requests: summary.requests });
  };

  const start = store.state(accountId);
  // Phase 1: the newest files, from page 1 down to what is covered (an earlier pass, or the watermark).
  const resuming = start.pass;
  const ceiling = resuming ? resuming.top : start.watermark;
  const head = listingReader(client, { page: 1, below: null }, readOpts);
  let newest: number | null = null;
  let pass = resuming;
  for (;;) {
    if (summary.requests >= limit) return ok(summary);
    const r = await head.next();
    if (!r.ok) return err(r.error);
    const page = r.page;
    if (page === null) {
      // Nothing listed at all, or the end reached: the index holds every file listed.
      // (An empty account is a complete index too: watermark 0.)
      if (newest === null) store.clearFiles(accountId);
      store.finishPass(accountId, newest ?? start.watermark ?? 0, now());
      summary.complete = true;
      return ok(summary);
    }
    apply(page);
    summary.listedTotal ??= page.total;
    summary.listedNewest ??= String(page.newest);
    newest ??= page.newest;
    if (!resuming) {
      pass = { top: newest, low: page.oldest, page: page.page };
      store.setPass(accountId, pass);
    }
    if (ceiling !== null && page.oldest <= ceiling) break;
    if (page.last) {
      store.finishPass(accountId, newest, now());
      summary.complete = true;
      return ok(summary);
    }
  }
  if (!resuming) {
    store.finishPass(accountId, newest, now());
    summary.complete = true;
    return ok(summary);
  }

  // Phase 2: an earlier pass was cut short; it now covers from the newest file down, and goes on.
  pass = { ...resuming, top: Math.max(resuming.top, newest ?? resuming.top) };
  store.setPass(accountId, pass);
  const tail = listingReader(
    client,
    // New files moved the old pages on; a page or two of error costs a request or two to find again.
    { page: resuming.page + 1 + Math.floor(summary.added / 100), below: resuming.low },
    readOpts,
  );
  for (;;) {
    if (summary.requests >= limit) return ok(summary);
    const r = await tail.next();
    if (!r.ok) return err(r.error);
    const page = r.page;
    if (page === null || page.last || (start.watermark !== null && page.oldest <= start.watermark)) {
      if (page) apply(page);
      store.finishPass(accountId, pass.top, now());
      summary.complete = true;
      return ok(summary);
    }
    apply(page);
    pass = { top: pass.top, low: Math.min(pass.low, page.oldest), page: page.page };
    store.setPass(accountId, pass);
  }
}
