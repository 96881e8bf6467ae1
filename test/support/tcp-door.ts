import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';

/**
 * A TCP door in front of a local port: `block()` closes it (every open connection and the port
 * itself, so the next request is refused as when the service is down or unplugged), `open()` opens it
 * again on the same port. The app is given `url()` as the service's address.
 */
export async function tcpDoor(target: number) {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const open = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer((inbound) => {
        const outbound = tcpConnect(target, '127.0.0.1');
        for (const x of [inbound, outbound]) {
          sockets.add(x);
          x.on('close', () => sockets.delete(x));
          x.on('error', () => x.destroy());
        }
        inbound.pipe(outbound).pipe(inbound);
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        port = (s.address() as { port: number }).port;
        server = s;
        resolve();
      });
    });
  await open();
  return {
    url: () => `http://127.0.0.1:${port}`,
    open,
    block: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        const s = server;
        server = null;
        if (s) s.close(() => resolve());
        else resolve();
      }),
  };
}
