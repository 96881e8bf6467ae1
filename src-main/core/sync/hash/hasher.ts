import { Worker } from 'node:worker_threads';
import { type AppError, appError, err, ok, type Result } from '../../../../src-shared/errors';
import { md5WorkerUrl } from '../../../shared-node/md5/worker-url';

/**
 * md5 of files in worker threads, so that hashing a 200 MB file never stalls the event loop that
 * drives uploads and the UI. Errors come back as values carrying the errno code (ENOENT, EACCES...).
 * A worker that dies (an error thrown in it, or terminated) is replaced at once and the file it was
 * reading is read again on the new one, once; a second death gives HASHER-FAILED, so that no caller
 * ever waits forever.
 */
export interface Hasher {
  md5(path: string): Promise<Result<{ md5: string; bytes: number }, AppError>>;
  /**
   * Starts a worker now if none runs: a folder just added has files to hash, and a thread's start (tens of
   * ms, 0.5 s on a loaded machine) then overlaps the listing instead of delaying the drop's first file.
   */
  warm?(): void;
  close(): Promise<void>;
}

/** The worker died twice while reading the file: the caller reads it again later. */
export const HASHER_FAILED = 'HASHER-FAILED';
/** The hasher was closed (the engine stops). */
export const HASHER_CLOSED = 'HASHER-CLOSED';

export interface HasherHooks {
  /** Tests: called once a job was posted to a worker (to terminate the worker in the middle of it). */
  onJobPosted?: (worker: Worker, path: string) => void;
}

interface Reply {
  id: number;
  md5?: string;
  bytes?: number;
  error?: { code: string; message: string };
  /** Set by the hasher itself when the worker died before replying. */
  workerGone?: true;
}

export function createHasher(threads = 1, hooks: HasherHooks = {}): Hasher {
  const workerUrl = md5WorkerUrl();
  const idle: Worker[] = [];
  /** Live workers; a dead one leaves this set before anything else happens. */
  const all = new Set<Worker>();
  /** Callers waiting for a worker; null answers them when the hasher is closed. */
  const waiting: ((w: Worker | null) => void)[] = [];
  const pending = new Map<number, (r: Reply) => void>();
  /** The job each busy worker is reading, to answer it when the worker dies. */
  const jobOf = new Map<Worker, number>();
  let nextId = 1;
  let closed = false;

  const max = Math.max(1, threads);
  // Workers start when a file first needs one, not with the engine: a restart with nothing to hash
  // (docs/benchmarks.md) then spends neither a thread's start on the scan's cores nor its ~10 MB.
  const acquire = () =>
    new Promise<Worker | null>((resolve) => {
      if (closed) return resolve(null);
      const w = idle.pop();
      if (w) resolve(w);
      else if (all.size < max) resolve(startWorker());
      else waiting.push(resolve);
    });
  const release = (w: Worker) => {
    const next = waiting.shift();
    if (next) next(w);
    else idle.push(w);
  };

  const startWorker = (): Worker => {
    const w = new Worker(workerUrl);
    w.on('message', (r: Reply) => {
      pending.get(r.id)?.(r);
      pending.delete(r.id);
    });
    const gone = (why: string) => {
      // 'error' is followed by 'exit': handled once.
      if (!all.delete(w)) return;
      const i = idle.indexOf(w);
      if (i >= 0) idle.splice(i, 1);
      const job = jobOf.get(w);
      jobOf.delete(w);
      if (job !== undefined) {
        pending.get(job)?.({ id: job, error: { code: HASHER_FAILED, message: why }, workerGone: true });
        pending.delete(job);
      }
      // A waiting file gets the replacement at once; otherwise the next one starts it.
      if (!closed && waiting.length > 0) release(startWorker());
    };
    w.on('error', (e) => gone(`The md5 worker failed: ${e.message}`));
    w.on('exit', (code) => gone(`The md5 worker stopped (exit code ${code}).`));
    w.unref();
    all.add(w);
    return w;
  };

  /** One attempt on one worker. */
  const hashOn = async (w: Worker, path: string): Promise<Reply> => {
    // A busy worker keeps the process alive (a CLI run must not exit mid-hash); an idle one does not.
    w.ref();
    const id = nextId++;
    try {
      return await new Promise<Reply>((resolve) => {
        pending.set(id, resolve);
        jobOf.set(w, id);
        w.postMessage({ id, path });
        hooks.onJobPosted?.(w, path);
      });
    } finally {
      if (jobOf.get(w) === id) jobOf.delete(w);
      w.unref();
      // A dead worker was replaced already; only a live one goes back to the pool.
      if (all.has(w)) release(w);
    }
  };

  return {
    async md5(path) {
      for (let attempt = 1; ; attempt++) {
        const worker = closed ? null : await acquire();
        if (worker === null) return err(appError(HASHER_CLOSED, 'The hasher was closed.'));
        const reply = await hashOn(worker, path);
        if (reply.workerGone && attempt < 2 && !closed) continue;
        if (reply.workerGone && closed) return err(appError(HASHER_CLOSED, 'The hasher was closed.'));
        if (reply.error) return err(appError(reply.error.code, reply.error.message));
        return ok({ md5: reply.md5!, bytes: reply.bytes! });
      }
    },
    warm() {
      if (!closed && all.size === 0) idle.push(startWorker());
    },
    async close() {
      closed = true;
      // Every caller is answered: those waiting for a worker now, the ones on a worker when it exits.
      for (const next of waiting.splice(0)) next(null);
      await Promise.all([...all].map((w) => w.terminate()));
    },
  };
}
