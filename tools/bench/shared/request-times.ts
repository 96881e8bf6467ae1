import { Agent, createServer, request as httpRequest, type IncomingMessage } from 'node:http';

/**
 * An HTTP proxy in front of the reference server that notes when each request arrived (method, route,
 * status): where a run's first seconds go (its `GET /me`, its listing, its first upload), seen from the
 * wire. One hop on loopback: about a millisecond a request, charged to the run it measures.
 */
export interface TimedRequest {
  at: number;
  method: string;
  route: string;
  status: number;
}

export interface RequestTimes {
  url: string;
  readonly requests: readonly TimedRequest[];
  close(): Promise<void>;
}

export async function startRequestTimes(target: string): Promise<RequestTimes> {
  const to = new URL(target);
  const agent = new Agent({ keepAlive: true });
  const requests: TimedRequest[] = [];
  const server = createServer((req, res) => {
    const at = performance.now();
    const up = httpRequest(
      {
        host: to.hostname,
        port: to.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
        agent,
      },
      (r: IncomingMessage) => {
        requests.push({
          at,
          method: req.method ?? '',
          route: (req.url ?? '').split('?')[0]!.replace(/\/\d+$/, '/:id'),
          status: r.statusCode ?? 0,
        });
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the request-times proxy has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      agent.destroy();
    },
  };
}
