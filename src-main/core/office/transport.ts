import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';

/** Where a desk listens and how it sends: one UDP socket, datagrams of one message each. */
export interface Transport {
  readonly port: number;
  send(data: Buffer, address: string, port: number): void;
  onMessage(fn: (data: Buffer, from: { address: string; port: number }) => void): void;
  close(): Promise<void>;
}

/**
 * Binds `port` on `host` (all interfaces by default), or any free port when that one is taken (a second
 * desk on the machine): the first desk of a machine is then reachable at the known port for manual lists.
 */
export async function openUdpTransport(opts: { port: number; host?: string }): Promise<Transport> {
  const bind = (port: number) =>
    new Promise<Socket>((resolve, reject) => {
      const s = createSocket({ type: 'udp4' });
      s.once('error', reject);
      s.bind(port, opts.host ?? '0.0.0.0', () => {
        s.off('error', reject);
        resolve(s);
      });
    });
  let socket: Socket;
  try {
    socket = await bind(opts.port);
  } catch (e) {
    if (opts.port === 0) throw e;
    socket = await bind(0);
  }
  // A send to a peer that just left answers ICMP unreachable, seen as an error event: not ours to crash on.
  socket.on('error', () => {});
  // The office must never keep a finished command alive.
  socket.unref();
  const listeners: ((data: Buffer, from: { address: string; port: number }) => void)[] = [];
  socket.on('message', (data: Buffer, rinfo: RemoteInfo) => {
    for (const l of listeners) l(data, { address: rinfo.address, port: rinfo.port });
  });
  let closed = false;
  return {
    port: socket.address().port,
    send(data, address, port) {
      if (closed) return;
      socket.send(data, port, address, () => {});
    },
    onMessage(fn) {
      listeners.push(fn);
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (closed) return resolve();
        closed = true;
        socket.close(() => resolve());
      }),
  };
}
