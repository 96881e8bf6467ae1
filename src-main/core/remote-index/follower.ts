import type { RemoteFile } from '../../../src-shared/api/file-hosting';
import type { Db } from '../../shared-node/sqlite';
import type { RemoteEvent } from '../service/file-api-client';
import type { IndexStore } from './index-store';

/** Files seen live before /me said whose they are; more are left to the next refresh. */
const MAX_HELD = 1_000;

/**
 * Batched following (the app): events wait at most `everyMs` and are written in one transaction.
 * A sync of 20,000 small files otherwise paid one SQLite commit per upload (a WAL append of every
 * page the row touches, per file), the largest cost the app added to the engine's (docs/benchmarks.md).
 */
export interface FollowerBatching {
  everyMs: number;
  /** After each commit, with the events it applied (a Files view is told once per commit). */
  onCommit?: (events: number) => void;
  /** A commit failed: its events wait for the next one, and this says so. */
  onError?: (events: readonly RemoteEvent[], error: unknown) => void;
}

export interface Follower {
  (event: RemoteEvent): void;
  /** Writes what waits, now (a batched follower; an immediate one has nothing waiting). */
  flush(): void;
}

/**
 * Batched followers with events waiting, by database: whoever reads the index flushes them first
 * (`flushFollowers`), so a query right after an upload sees it, as with immediate writes.
 */
const waiting = new WeakMap<Db, Set<Follower>>();

/** Writes every batched follower's waiting events of this database (before a read of the index). */
export function flushFollowers(db: Db): void {
  const set = waiting.get(db);
  if (!set || set.size === 0) return;
  for (const f of [...set]) f.flush();
}

/**
 * Keeps the index in step with this app's own uploads and deletes, from the replies of one
 * client (wire it to `FileApiClientOptions.onRemote`): the sync engine's uploads and deletes, a
 * delete from the Files view, an import, `rm`, all go through a client. A file id names one file of
 * the whole service, so a delete applies to whichever account of the service holds it; a new file
 * needs the account, which /me names (the engine asks it before any upload): until then new files
 * are held.
 *
 * Without `batching` each event is written as it comes (a command that may exit right after its call).
 * With it, events are written together (one transaction) within `everyMs`, or before any read of the
 * index through `createRemoteIndex` (flushFollowers).
 */
export function indexFollower(
  store: IndexStore,
  service: string,
  clientId?: number,
  batching?: FollowerBatching & { db: Db },
): Follower {
  let accountId = clientId === undefined ? null : store.accountId({ service, clientId });
  const held: RemoteFile[] = [];
  /** Events whose write failed (the database busy), or that wait for their batch: applied in order. */
  let queue: RemoteEvent[] = [];

  function apply(event: RemoteEvent): void {
    switch (event.kind) {
      case 'account': {
        accountId = store.accountId({ service, clientId: event.clientId });
        if (held.length) store.put(accountId, held.splice(0));
        return;
      }
      case 'live': {
        if (accountId !== null) store.put(accountId, [event.file]);
        else if (held.length < MAX_HELD) held.push(event.file);
        return;
      }
      case 'gone': {
        for (const id of store.accountIdsOf(service)) store.remove(id, event.id);
        const i = held.findIndex((f) => f.id === event.id);
        if (i >= 0) held.splice(i, 1);
        return;
      }
    }
  }

  if (!batching) {
    // A write that throws is not lost: the event waits (at most MAX_HELD of them; beyond, the next
    // refresh and the daily walk bring the index back) and the error goes to the client, which says so.
    const follow = (event: RemoteEvent): void => {
      const now = [...queue.splice(0), event];
      for (let i = 0; i < now.length; i++) {
        try {
          apply(now[i]!);
        } catch (e) {
          queue.push(...now.slice(i).slice(-MAX_HELD));
          throw e;
        }
      }
    };
    return Object.assign(follow, { flush: () => {} });
  }

  const { db, everyMs } = batching;
  let timer: NodeJS.Timeout | null = null;
  const commit = db.transaction((events: readonly RemoteEvent[]) => {
    for (const e of events) apply(e);
  });

  const wait = () => {
    const set = waiting.get(db) ?? new Set<Follower>();
    waiting.set(db, set);
    set.add(follower);
  };

  const follower: Follower = Object.assign(
    (event: RemoteEvent): void => {
      queue.push(event);
      wait();
      if (timer === null) {
        timer = setTimeout(() => follower.flush(), everyMs);
        // A process ending with events waiting flushes them on close (app-service.ts), not by a timer.
        timer.unref();
      }
    },
    {
      flush(): void {
        if (timer !== null) clearTimeout(timer);
        timer = null;
        waiting.get(db)?.delete(follower);
        if (queue.length === 0) return;
        const events = queue;
        queue = [];
        // The transaction rolls back as a whole: so does what the events changed in memory.
        const before = { accountId, held: [...held] };
        try {
          commit(events);
        } catch (e) {
          accountId = before.accountId;
          held.splice(0, held.length, ...before.held);
          // Kept for the next event's batch (at most MAX_HELD; beyond, the next refresh and the daily
          // walk bring the index back), and said.
          queue = [...events.slice(-MAX_HELD), ...queue];
          wait();
          batching.onError?.(events, e);
          return;
        }
        batching.onCommit?.(events.length);
      },
    },
  );
  return follower;
}
