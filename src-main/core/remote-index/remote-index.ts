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
import type { FileApiClient } from '../service/file-api-client';
import { type FindDeletedOptions, type FindDeletedSummary, findDeleted } from './find-deleted';
import { type Follower, type FollowerBatching, flushFollowers, indexFollower } from './follower';
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
      // A batched follower's waiting writes go in first: what a reply showed is there for any read.
      const fresh =
        <A extends unknown[], R>(fn: (...a: A) => R) =>
        (...a: A): R => {
          flushFollowers(db);
          return fn(...a);
        };
      const index: AccountIndex = {
        account,
        page: fresh((q: IndexQuery = {}) => queries.page(id, q)),
        summary: fresh((f: IndexFilter = {}) => queries.summary(id, f)),
        buckets: fresh(() => queries.buckets(id)),
        get: fresh((fileId: number) => store.get(id, fileId)),
        byUrl: fresh((url: string) => store.byUrl(id, url)),
        urlsEndingWith: fresh((bucket: string, suffix: string) => store.urlsEndingWith(id, bucket, suffix)),
        status: fresh((): IndexStatus => {
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
        }),
        refresh: fresh((client: FileApiClient, o?: RefreshOptions) => refreshIndex(db, store, id, client, o)),
        walk: fresh((client: FileApiClient, o?: WalkOptions) => walkIndex(db, store, id, client, o)),
        walkDue: (now = Date.now()) => walkDue(store.state(id), now),
        findDeleted: fresh((client: FileApiClient, o?: FindDeletedOptions) =>
          findDeleted(db, store, id, client, o),
        ),
        gone: fresh((limit = 5_000) => store.gone(id, limit)),
        forgetGone: (ids) => store.forgetGone(id, ids),
        *each(q = {}) {
          let after: string | undefined;
          for (;;) {
            const r = index.page({ ...q, limit: 1000, ...(after !== undefined ? { after } : {}) });
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
      flushFollowers(db);
      return store.lastAccount(service);
    },

    /**
     * Wire to a client's `onRemote` so that this app's uploads and deletes reach the index at once;
     * `batching` writes them together within a short interval (the app: one commit per batch, not per
     * upload), and any read of the index through here writes what waits first.
     */
    follower(service: string, clientId?: number, batching?: FollowerBatching): Follower {
      return indexFollower(store, service, clientId, batching ? { ...batching, db } : undefined);
    },

    /** Writes what batched followers of this database hold (before the database closes). */
    flushFollowers(): void {
      flushFollowers(db);
    },
  };
}

export type RemoteIndex = ReturnType<typeof createRemoteIndex>;
export type { IndexAccount, RefreshOptions, RefreshSummary, WalkOptions, WalkSummary };
