import { Worker } from 'node:worker_threads';
import { type AppError, appError, err, ok, type Result } from '../../../../src-shared/errors';
import { md5WorkerUrl } from '../../../shared-node/md5/worker-url';

/**
 * md5 of files in worker threads, so that hashing a 200 MB file never stalls the event loop that
 * drives uploads and the UI. Errors come back as values carrying the errno code (ENOENT, EACCES...).
 */
export interface Hasher {
  md5(path: string): Promise<Result<{ md5: string; bytes: number }, AppError>>;
  close(): Promise<void>;
}

interface Reply {
  id: number;
  md5?: string;
  bytes?: number;
  error?: { code: string; message: string };
}

export function createHasher(threads = 1): Hasher {
  const workerUrl = md5WorkerUrl();
  const idle: Worker[] = [];
  const all: Worker[] = [];
  const waiting: ((w: Worker) => void)[] = [];
  const pending = new Map<number, (r: Reply) => void>();
  let nextId = 1;
  let closed = false;

  for (let i = 0; i < Math.max(1, threads); i++) {
    const w = new Worker(workerUrl);
    w.on('message', (r: Reply) => {
      pending.get(r.id)?.(r);
      pending.delete(r.id);
    });
    w.unref();
    all.push(w);
    idle.push(w);
  }

  const acquire = () =>
    new Promise<Worker>((resolve) => {
      const w = idle.pop();
      if (w) resolve(w);
      else waiting.push(resolve);
    });
  const release = (w: Worker) => {
    const next = waiting.shift();
    if (next) next(w);
    else idle.push(w);
  };

  return {
    async md5(path) {
      if (closed) return err(appError('HASHER-CLOSED', 'The hasher was closed.'));
      const w = await acquire();
      // A busy worker keeps the process alive (a CLI run must not exit mid-hash); an idle one does not.
      w.ref();
      try {
        const id = nextId++;
        const reply = await new Promise<Reply>((resolve) => {
          pending.set(id, resolve);
          w.postMessage({ id, path });
        });
        if (reply.error) return err(appError(reply.error.code, reply.error.message));
        return ok({ md5: reply.md5!, bytes: reply.bytes! });
      } finally {
        w.unref();
        release(w);
      }
    },
    async close() {
      closed = true;
      await Promise.all(all.map((w) => w.terminate()));
    },
  };
}
