import type { BulkDeleteJob } from '../../../src-shared/contract/remote-index';
import type { Db } from '../../shared-node/sqlite';
import { statements } from '../../shared-node/statements';
import type { Clock } from '../service/clock';
import type { FileApiClient } from '../service/file-api-client';
import { createPacer, done, retry } from '../service/pacer';
import { BULK_DELETE_BACKOFF } from '../service/retry-policy';

interface JobRow {
  id: number;
  state: BulkDeleteJob['state'];
  total: number;
  bytes: number;
  last_error_code: string | null;
  last_error_message: string | null;
  started_at: number;
  finished_at: number | null;
  done: number;
  failed: number;
}

const WAITING = 0;
const DONE = 1;
const REFUSED = 2;

/**
 * Bulk deletes kept in SQLite (`remote_bulk_jobs`, one row per file in `remote_bulk_items`), so that
 * an app closed halfway goes on where it stopped: only the files still waiting are sent again.
 */
export function bulkDeleteStore(db: Db) {
  const prep = statements(db);
  const toJob = (r: JobRow): BulkDeleteJob => ({
    id: r.id,
    state: r.state,
    total: r.total,
    bytes: r.bytes,
    done: r.done,
    failed: r.failed,
    lastError:
      r.last_error_code !== null ? { code: r.last_error_code, message: r.last_error_message ?? '' } : null,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
  });
  const jobSql = `SELECT j.*,
      (SELECT COUNT(*) FROM remote_bulk_items i WHERE i.job_id = j.id AND i.state = ${DONE}) AS done,
      (SELECT COUNT(*) FROM remote_bulk_items i WHERE i.job_id = j.id AND i.state = ${REFUSED}) AS failed
    FROM remote_bulk_jobs j`;

  return {
    create(accountId: number, files: Iterable<{ id: number; size: number }>, now = Date.now()): number {
      return db.transaction(() => {
        const id = Number(
          prep(
            `INSERT INTO remote_bulk_jobs (account_id, state, total, bytes, started_at) VALUES (?, 'running', 0, 0, ?)`,
          ).run(accountId, now).lastInsertRowid,
        );
        const add = prep('INSERT OR IGNORE INTO remote_bulk_items (job_id, file_id, size) VALUES (?, ?, ?)');
        let total = 0;
        let bytes = 0;
        for (const f of files) {
          if (add.run(id, f.id, f.size).changes === 0) continue;
          total++;
          bytes += f.size;
        }
        prep('UPDATE remote_bulk_jobs SET total = ?, bytes = ? WHERE id = ?').run(total, bytes, id);
        return id;
      })();
    },
    get(jobId: number): BulkDeleteJob | null {
      const r = prep<[number], JobRow>(`${jobSql} WHERE j.id = ?`).get(jobId);
      return r ? toJob(r) : null;
    },
    /** The account's newest job, running or not. */
    latest(accountId: number): BulkDeleteJob | null {
      const r = prep<[number], JobRow>(`${jobSql} WHERE j.account_id = ? ORDER BY j.id DESC LIMIT 1`).get(
        accountId,
      );
      return r ? toJob(r) : null;
    },
    waiting(jobId: number, limit: number): number[] {
      return prep<[number, number, number], number>(
        'SELECT file_id FROM remote_bulk_items WHERE job_id = ? AND state = ? ORDER BY file_id LIMIT ?',
      )
        .pluck()
        .all(jobId, WAITING, limit);
    },
    mark(jobId: number, fileId: number, ok: boolean): void {
      prep('UPDATE remote_bulk_items SET state = ? WHERE job_id = ? AND file_id = ?').run(
        ok ? DONE : REFUSED,
        jobId,
        fileId,
      );
    },
    setError(jobId: number, e: { code: string; message: string }): void {
      prep('UPDATE remote_bulk_jobs SET last_error_code = ?, last_error_message = ? WHERE id = ?').run(
        e.code,
        e.message,
        jobId,
      );
    },
    end(jobId: number, state: 'finished' | 'cancelled' | 'stopped', now = Date.now()): void {
      prep('UPDATE remote_bulk_jobs SET state = ?, finished_at = ? WHERE id = ?').run(state, now, jobId);
    },
  };
}
export type BulkDeleteStore = ReturnType<typeof bulkDeleteStore>;

export interface RunOptions {
  store: BulkDeleteStore;
  jobId: number;
  client: FileApiClient;
  signal: AbortSignal;
  /** Deletes in flight at once; the budget's user lane decides when each is sent. */
  concurrency?: number;
  onProgress?: (job: BulkDeleteJob) => void;
  /** What the waits before sending a file again sleep on (tests move it by hand). */
  clock?: Clock;
}

/**
 * Sends the waiting deletes of a job, in the budget's `user` lane (after uploads, before background
 * listing). A 410 GONE is done: the file is not there, which is what was asked. A refusal of the
 * account (401, closed) stops the job, keeping its place; a network failure waits and sends again
 * (BULK_DELETE_BACKOFF); any other refusal marks that file and goes on. The client's `onRemote` takes each deleted file out
 * of the index (follower.ts), so the Files view follows without a listing.
 */
export async function runBulkDelete(o: RunOptions): Promise<BulkDeleteJob | null> {
  const { store, jobId, client, signal } = o;
  const concurrency = o.concurrency ?? 4;
  const pacer = createPacer({ policy: BULK_DELETE_BACKOFF, ...(o.clock ? { clock: o.clock } : {}) });
  let stoppedBy: 'stopped' | null = null;
  const queue: number[] = [];
  const taken = new Set<number>();
  const refill = () => {
    if (queue.length > 0) return;
    for (const id of store.waiting(jobId, 500)) if (!taken.has(id)) queue.push(id);
  };
  const report = () => {
    const j = store.get(jobId);
    if (j) o.onProgress?.(j);
  };

  const worker = async () => {
    while (!signal.aborted && stoppedBy === null) {
      refill();
      const id = queue.shift();
      if (id === undefined) return;
      taken.add(id);
      // A stop aborts a delete still waiting for its place; one already sent is marked by its reply,
      // or, if the stop cut it off, sent again after the restart, where a 410 counts as done. A delete
      // that got no answer is sent again by the pacer, after a growing wait, until the job is stopped.
      let r: Awaited<ReturnType<FileApiClient['deleteFile']>>;
      try {
        r = await pacer.call(
          async () => {
            const sent = await client.deleteFile(id, { lane: 'user', signal });
            if (sent.ok || sent.error.reaction !== 'retry' || signal.aborted) return done(sent);
            store.setError(jobId, sent.error);
            return retry(sent, { retryAfterMs: sent.error.retryAfterMs });
          },
          { signal },
        );
      } catch (e) {
        if (signal.aborted) return;
        throw e;
      }
      if (r.ok || r.error.code === 'GONE') store.mark(jobId, id, true);
      else if (signal.aborted) return;
      else if (r.error.reaction === 'auth' || r.error.reaction === 'closed') {
        store.setError(jobId, r.error);
        stoppedBy = 'stopped';
        return;
      } else {
        store.setError(jobId, r.error);
        store.mark(jobId, id, false);
      }
      taken.delete(id);
      report();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  if (signal.aborted) return store.get(jobId);
  store.end(jobId, stoppedBy ?? 'finished');
  report();
  return store.get(jobId);
}
