import type {
  IndexedFile,
  IndexFilter,
  IndexPage,
  IndexQuery,
  IndexStatus,
  IndexSummary,
} from '../../../src-shared/contract/remote-index';
import type { AppError, Result } from '../../../src-shared/errors';
import type { Db } from '../../shared-node/sqlite';
import type { ApiError } from '../service/api-error';
import type { FileApiClient, RemoteEvent } from '../service/file-api-client';
import { type FindDeletedOptions, type FindDeletedSummary, findDeleted } from './find-deleted';
import { indexFollower } from './follower';
import { indexQueries } from './index-query';
import { type IndexAccount, indexStore } from './index-store';
import { type RefreshOptions, type RefreshSummary, refreshIndex } from './refresh';
import { type WalkOptions, type WalkSummary, walkDue, walkIndex } from './walk';

/** The index of one account: every query answers from SQLite, only refresh and walk send requests. */
export interface AccountIndex {
  readonly account: IndexAccount;
  page(q?: IndexQuery): Result<IndexPage, AppError>;
  summary(filter?: IndexFilter): Result<IndexSummary, AppError>;
  buckets(): string[];
  get(id: number): IndexedFile | null;
  /** The live file at this URL, if the index holds it. */
  byUrl(url: string): IndexedFile | null;
  /** URLs of a bucket ending in `suffix`, newest first (at most 20): the versions of one file name. */
  urlsEndingWith(bucket: string, suffix: string): string[];
  status(): IndexStatus;
  /** Reads the listing's new files (docs/remote-index.md "Fresh without relisting"). */
  refresh(client: FileApiClient, o?: RefreshOptions): Promise<Result<RefreshSummary, ApiError>>;
  /** Goes on with the full walk that finds files deleted elsewhere (background lane by default). */
  walk(client: FileApiClient, o?: WalkOptions): Promise<Result<WalkSummary, ApiError>>;
  /** A walk is under way, or the last one finished a day ago or more. */
  walkDue(now?: number): boolean;
  /** The listing counts fewer files than the index: finds which went, by bisection (find-deleted.ts). */
  findDeleted(client: FileApiClient, o?: FindDeletedOptions): Promise<Result<FindDeletedSummary, ApiError>>;
  /** Ids that went from the service (listing, 410, a delete sent here) and whose sync rows were not told yet. */
  gone(limit?: number): number[];
  /** Those were told. */
  forgetGone(ids: readonly number[]): void;
  /** Every file matching the query, in its order (exports), read a page at a time. */
  each(q?: IndexQuery): Generator<IndexedFile>;
}

/**
 * The remote index (docs/remote-index.md): one SQLite row per live file of each account, so the
 * Files view and `assets-sync files` answer 100,000 files without a request, kept fresh by reading
 * only the listing's newest pages, by this app's own replies, and by a slow daily walk.
 */
export function createRemoteIndex(db: Db) {
  const store = indexStore(db);
  const queries = indexQueries(db);

  return {
    forAccount(account: IndexAccount): AccountIndex {
      const id = store.accountId(account);
      const index: AccountIndex = {
        account,
        page: (q = {}) => queries.page(id, q),
        summary: (f = {}) => queries.summary(id, f),
        buckets: () => queries.buckets(id),
        get: (fileId) => store.get(id, fileId),
        byUrl: (url) => store.byUrl(id, url),
        urlsEndingWith: (bucket, suffix) => store.urlsEndingWith(id, bucket, suffix),
        status() {
          const st = store.state(id);
          return {
            count: store.count(id),
            complete: st.watermark !== null,
            refreshedAt: st.refreshedAt,
            walk: {
              running: st.walk !== null,
              pagesDone: st.walk ? st.walk.page - 1 : null,
              finishedAt: st.walkFinishedAt,
            },
          };
        },
        refresh: (client, o) => refreshIndex(db, store, id, client, o),
        walk: (client, o) => walkIndex(db, store, id, client, o),
        walkDue: (now = Date.now()) => walkDue(store.state(id), now),
        findDeleted: (client, o) => findDeleted(db, store, id, client, o),
        gone: (limit = 5_000) => store.gone(id, limit),
        forgetGone: (ids) => store.forgetGone(id, ids),
        *each(q = {}) {
          let after: string | undefined;
          for (;;) {
            const r = queries.page(id, { ...q, limit: 1000, ...(after !== undefined ? { after } : {}) });
            if (!r.ok) return;
            yield* r.value.files;
            if (r.value.next === null) return;
            after = r.value.next;
          }
        },
      };
      return index;
    },

    /** The account of this service whose index was refreshed last (reading it without asking /me). */
    lastAccount(service: string): IndexAccount | null {
      return store.lastAccount(service);
    },

    /** Wire to a client's `onRemote` so that this app's uploads and deletes reach the index at once. */
    follower(service: string, clientId?: number): (event: RemoteEvent) => void {
      return indexFollower(store, service, clientId);
    },
  };
}

export type RemoteIndex = ReturnType<typeof createRemoteIndex>;
export type { IndexAccount, RefreshOptions, RefreshSummary, WalkOptions, WalkSummary };
