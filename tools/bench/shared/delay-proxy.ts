import { createConnection, createServer, type Socket } from 'node:net';

/**
 * A TCP proxy that adds latency: every byte leaves `oneWayMs` after it arrived, in each direction,
 * and a new connection's first byte waits one round trip more (the SYN / SYN-ACK a real link charges
 * before a client may send; here the kernel answers the client's SYN on loopback at once). The
 * bench's stand-in for netem, which these kernels lack. The bandwidth is shaped elsewhere (tc tbf on
 * the veth behind it, link.ts); the proxy adds delay only.
 */
export interface DelayProxy {
  /** http://127.0.0.1:port */
  url: string;
  /** Connections accepted so far: how many a client opened (reuse shows here). */
  connections(): number;
  close(): Promise<void>;
}

/** Bytes held per direction before the sender is paused: above a 200 Mbit/s link's 20 ms (500 KB). */
const HELD_BYTES = 4 * 1024 * 1024;

export async function startDelayProxy(
  target: { host: string; port: number },
  oneWayMs: number,
): Promise<DelayProxy> {
  const open = new Set<Socket>();
  let accepted = 0;
  const server = createServer({ allowHalfOpen: true, noDelay: true }, (client) => {
    accepted += 1;
    const upstream = createConnection({ ...target, allowHalfOpen: true, noDelay: true });
    for (const s of [client, upstream]) {
      open.add(s);
      s.once('close', () => open.delete(s));
      // Either side failing ends the pair, as a broken link would.
      s.once('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    let ended = 0;
    const halfDone = () => {
      ended += 1;
      if (ended === 2) {
        client.destroy();
        upstream.destroy();
      }
    };
    delayLine(client, upstream, oneWayMs, performance.now() + 2 * oneWayMs, halfDone);
    delayLine(upstream, client, oneWayMs, 0, halfDone);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the delay proxy has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    connections: () => accepted,
    async close() {
      for (const s of open) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/**
 * Forwards src's bytes to dst, each `oneWayMs` after it arrived (and not before `openAt`), in order;
 * src's end is forwarded after its last byte. Backpressure both ways: src pauses while too much is
 * held, and nothing more is written while dst's buffer is full.
 */
function delayLine(src: Socket, dst: Socket, oneWayMs: number, openAt: number, done: () => void): void {
  const queue: { due: number; chunk: Buffer | null }[] = [];
  let held = 0;
  let timer: NodeJS.Timeout | null = null;
  let blocked = false;
  let finished = false;

  const arm = () => {
    if (timer || blocked || finished || queue.length === 0) return;
    timer = setTimeout(flush, Math.max(0, queue[0]!.due - performance.now()));
  };
  const flush = () => {
    timer = null;
    const now = performance.now();
    while (!blocked && queue.length > 0 && queue[0]!.due <= now) {
      const { chunk } = queue.shift()!;
      if (chunk === null) {
        finished = true;
        if (!dst.destroyed) dst.end();
        done();
        return;
      }
      held -= chunk.length;
      if (dst.destroyed) continue;
      if (!dst.write(chunk)) {
        blocked = true;
        dst.once('drain', () => {
          blocked = false;
          flush();
        });
      }
    }
    if (held < HELD_BYTES && src.isPaused()) src.resume();
    arm();
  };
  const push = (chunk: Buffer | null) => {
    if (finished) return;
    queue.push({ due: Math.max(performance.now(), openAt) + oneWayMs, chunk });
    if (chunk) {
      held += chunk.length;
      if (held >= HELD_BYTES) src.pause();
    }
    arm();
  };
  src.on('data', (chunk: Buffer) => push(chunk));
  src.once('end', () => push(null));
  // Closed without an end (reset, destroyed): what was in flight still arrives, then the end.
  src.once('close', () => {
    if (!queue.some((q) => q.chunk === null)) push(null);
  });
}
