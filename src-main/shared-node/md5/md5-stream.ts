import { close, open, write } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { md5WorkerUrl } from './worker-url';

/**
 * md5 of bytes as they arrive (an upload's body), computed in a worker thread, and optionally written to
 * a file: the thread that receives them only copies them into a few large shared buffers. Each buffer is
 * hashed by the worker and, at the same time, written from here through the thread pool (in order, one
 * write at a time), then reused; for 200 MB that takes ~0.3 s of md5 and ~3,000 small writes off the
 * receiving thread. Memory stays flat whatever the size, and makes no garbage: when all of a stream's
 * buffers are busy, `update` returns a promise to wait for (backpressure).
 */
export interface Md5Stream {
  /** Takes a copy of the bytes. Returns null when they were taken at once, or a promise to await first. */
  update(bytes: Uint8Array): Promise<void> | null;
  /** The md5 (32 lower-case hex digits) of every byte given, once they are all written and the file closed. */
  digest(): Promise<string>;
  /**
   * Ends the stream without an md5 (a refused upload, or after a failure). Resolves once no write is in
   * flight and the file is closed, so that it may be removed.
   */
  abort(): Promise<void>;
}

export interface Md5Streams {
  /** A new stream; with `writeTo`, its bytes are also written to that file (created or truncated). */
  open(options?: { writeTo?: string }): Md5Stream;
  /** Stops the worker; open streams fail. */
  close(): Promise<void>;
}

export interface Md5StreamOptions {
  /** Bytes per buffer (one message to the worker, one write). */
  bufferBytes?: number;
  /** Buffers per stream: at most this many times bufferBytes copied and not yet hashed and written. */
  buffersPerStream?: number;
}

/** The md5 is unknown: the file could not be written (`code` is the errno), or the worker failed. */
export class Md5StreamError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

type Reply = { stream: number; hashed: number } | { stream: number; md5: string };

interface Block {
  shared: SharedArrayBuffer;
  bytes: Uint8Array;
  /** Its place among the stream's buffers, echoed by the worker. */
  slot: number;
  /** Still to finish with it: the worker's hash, and the write when there is a file. */
  busy: number;
}

const DEFAULT_BUFFER_BYTES = 1024 * 1024;
const DEFAULT_BUFFERS = 4;

export function createMd5Streams(options: Md5StreamOptions = {}): Md5Streams {
  const bufferBytes = options.bufferBytes ?? DEFAULT_BUFFER_BYTES;
  const perStream = Math.max(1, options.buffersPerStream ?? DEFAULT_BUFFERS);
  const workerUrl = md5WorkerUrl();
  /** Open streams, by id: how the worker's replies find theirs. */
  const replyTo = new Map<number, (reply: Reply) => void>();
  const onWorkerGone = new Set<(why: string) => void>();
  // Kept for the next stream: one stream's worth, so a lone upload allocates nothing after the first.
  const spare: SharedArrayBuffer[] = [];
  let worker: Worker | null = null;
  let nextId = 1;
  let closed = false;

  const keep = (shared: SharedArrayBuffer) => {
    if (spare.length < perStream) spare.push(shared);
  };
  // A worker with streams in progress keeps the process alive; an idle one does not.
  const refIfBusy = () => {
    if (replyTo.size > 0) worker?.ref();
    else worker?.unref();
  };
  const startWorker = (): Worker => {
    const w = new Worker(workerUrl);
    w.on('message', (reply: Reply) => replyTo.get(reply.stream)?.(reply));
    const gone = (why: string) => {
      if (worker !== w) return;
      worker = null;
      for (const f of [...onWorkerGone]) f(why);
    };
    w.on('error', (e) => gone(`The md5 worker failed: ${e.message}`));
    w.on('exit', (code) => gone(`The md5 worker stopped (exit code ${code}).`));
    w.unref();
    return w;
  };

  return {
    open(opts = {}) {
      const id = nextId++;
      const buffers: Block[] = [];
      const free: Block[] = [];
      let current: Block | null = null;
      let fill = 0;
      let failed: Md5StreamError | null = null;
      let finished = false;
      let updating = false;
      let digestAsked = false;
      /** Called when a buffer is free again, or the stream fails. */
      let wake: (() => void) | null = null;
      let md5: string | null = null;
      let whenDone: { resolve: (md5: string) => void; reject: (e: Error) => void } | null = null;

      // The file: opened at once, written in order, one write at a time (as a write stream would).
      const file = opts.writeTo;
      let fd: number | null = null;
      let position = 0;
      const toWrite: { buffer: Block; length: number }[] = [];
      let writing = false;
      let fileClosed = file === undefined;
      let whenClosed: (() => void) | null = null;

      if (!closed) worker ??= startWorker();
      // The worker this stream lives in: after a crash, a new stream starts a new one, not this.
      const w = closed ? null : worker;
      const fail = (e: Md5StreamError) => {
        if (failed) return;
        failed = e;
        toWrite.length = 0;
        const f = wake;
        wake = null;
        f?.();
        whenDone?.reject(e);
        closeFile();
        settle();
      };
      const workerGone = (why: string) => fail(new Md5StreamError('HASHER-FAILED', why));
      if (!w) failed = new Md5StreamError('HASHER-FAILED', 'The md5 streams were closed.');
      else {
        replyTo.set(id, (reply) => {
          if ('md5' in reply) {
            md5 = reply.md5;
            settle();
          } else done(buffers[reply.hashed]!);
        });
        onWorkerGone.add(workerGone);
        refIfBusy();
        w.postMessage({ stream: id, op: 'open' });
      }
      if (file !== undefined) {
        open(file, 'w', (e, opened) => {
          if (e) {
            fileClosed = true;
            fail(new Md5StreamError(e.code ?? 'WRITE-FAILED', e.message));
            return;
          }
          fd = opened;
          if (failed || finished) closeFile();
          else writeNext();
        });
      }

      /** A buffer the worker or the write gave back: free once both did. */
      const done = (b: Block) => {
        if (--b.busy > 0) return;
        if (finished) {
          keep(b.shared);
          return;
        }
        free.push(b);
        const f = wake;
        wake = null;
        f?.();
      };
      const writeNext = () => {
        if (writing || fd === null) return;
        const next = toWrite.shift();
        if (!next) {
          if (digestAsked || failed) closeFile();
          return;
        }
        writing = true;
        writeAll(fd, next.buffer.bytes.subarray(0, next.length), position, (e) => {
          writing = false;
          if (e) fail(new Md5StreamError(e.code ?? 'WRITE-FAILED', e.message));
          done(next.buffer);
          writeNext();
        });
        position += next.length;
      };
      const closeFile = () => {
        if (fd === null || writing) return;
        const f = fd;
        fd = null;
        close(f, (e) => {
          fileClosed = true;
          if (e) fail(new Md5StreamError(e.code ?? 'WRITE-FAILED', e.message));
          settle();
          whenClosed?.();
        });
      };
      /** The md5 is given once the worker sent it and the file is whole and closed. */
      const settle = () => {
        if (!finished && (failed || (digestAsked && md5 !== null && fileClosed && !writing))) {
          finished = true;
          replyTo.delete(id);
          onWorkerGone.delete(workerGone);
          for (const b of free) keep(b.shared);
          refIfBusy();
          if (!failed) whenDone?.resolve(md5!);
        }
        if (finished && fileClosed) whenClosed?.();
      };

      const send = () => {
        const b = current!;
        current = null;
        b.busy = file === undefined ? 1 : 2;
        w!.postMessage({ stream: id, op: 'update', buffer: b.shared, slot: b.slot, length: fill });
        if (file !== undefined) {
          toWrite.push({ buffer: b, length: fill });
          writeNext();
        }
        fill = 0;
      };
      const take = (): Block | null => {
        const b = free.pop();
        if (b) return b;
        if (buffers.length >= perStream) return null;
        const shared = spare.pop() ?? new SharedArrayBuffer(bufferBytes);
        const made = { shared, bytes: new Uint8Array(shared), slot: buffers.length, busy: 0 };
        buffers.push(made);
        return made;
      };
      /** Copies from `offset` on; returns where it stopped: the end, or where no buffer was free. */
      const copy = (bytes: Uint8Array, offset: number): number => {
        while (offset < bytes.length) {
          if (!current) {
            current = take();
            if (!current) return offset;
          }
          const n = Math.min(bytes.length - offset, bufferBytes - fill);
          current.bytes.set(bytes.subarray(offset, offset + n), fill);
          fill += n;
          offset += n;
          if (fill === bufferBytes) send();
        }
        return offset;
      };
      const bufferFree = () =>
        new Promise<void>((resolve, reject) => {
          if (failed) reject(failed);
          else if (free.length > 0) resolve();
          else wake = () => (failed ? reject(failed) : resolve());
        });
      const misuse = (what: string) => Promise.reject(new Md5StreamError('HASHER-MISUSED', what));

      return {
        update(bytes) {
          if (failed) return Promise.reject(failed);
          if (updating || digestAsked) return misuse('update() called while one waits, or after digest().');
          let offset = copy(bytes, 0);
          if (offset === bytes.length) return null;
          updating = true;
          return (async () => {
            try {
              while (offset < bytes.length) {
                await bufferFree();
                offset = copy(bytes, offset);
              }
            } finally {
              updating = false;
            }
          })();
        },
        digest() {
          if (failed) return Promise.reject(failed);
          if (updating || digestAsked) return misuse('digest() called twice, or while update() waits.');
          digestAsked = true;
          return new Promise<string>((resolve, reject) => {
            whenDone = { resolve, reject };
            if (current && fill > 0) send();
            w!.postMessage({ stream: id, op: 'end' });
            if (toWrite.length === 0) writeNext();
          });
        },
        abort() {
          if (!finished) {
            w?.postMessage({ stream: id, op: 'abort' });
            fail(new Md5StreamError('HASHER-ABORTED', 'The md5 stream was aborted.'));
          }
          if (fileClosed) return Promise.resolve();
          return new Promise<void>((resolve) => {
            whenClosed = resolve;
            closeFile();
          });
        },
      };
    },
    async close() {
      closed = true;
      const w = worker;
      worker = null;
      for (const f of [...onWorkerGone]) f('The md5 streams were closed.');
      await w?.terminate();
    },
  };
}

/** Writes all of `bytes` at `position` (a short write goes on where it stopped). */
function writeAll(
  fd: number,
  bytes: Uint8Array,
  position: number,
  done: (e: NodeJS.ErrnoException | null) => void,
): void {
  write(fd, bytes, 0, bytes.length, position, (e, n) => {
    if (e) done(e);
    else if (n < bytes.length) writeAll(fd, bytes.subarray(n), position + n, done);
    else done(null);
  });
}

let shared: Md5Streams | null = null;

/** One md5 worker for the whole process (started at the first stream), for callers without a lifecycle. */
export function sharedMd5Streams(): Md5Streams {
  shared ??= createMd5Streams();
  return shared;
}
