import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServerOptionsInput } from '../../../src-main/reference-server/options';
import { createBot, createClient, entryCall, startTestServer } from '../../support/reference-server';

/** A real server on port 0 in a temp folder; `stop` closes it and removes the folder. */
export async function startServer(options: ServerOptionsInput = {}) {
  const s = await startTestServer({ tempPrefix: 'kb-test-', ...options });
  return {
    server: s.server,
    dir: s.dir,
    admin: s.admin,
    /** An entry API call; `body` given as a string is sent as is (for malformed JSON). */
    kb: (token: string | null, method: string, path: string, body?: unknown) =>
      entryCall(s.baseUrl, token, method, path, body),
    stop: s.stop,
  };
}

export type TestServer = Awaited<ReturnType<typeof startServer>>;

let clientSeq = 0;

/** A new client (its own rate-limit budget) with one bot. */
export async function newBot(s: TestServer, webhookUrl?: string | null, clientId?: number) {
  const client = clientId ?? (await createClient(s.admin, { name: `kb client ${++clientSeq}` })).client.id;
  const created = await createBot(s.admin, client, {
    name: 'Bot',
    business_name: 'Biz',
    ...(webhookUrl === undefined ? {} : { webhook_url: webhookUrl }),
  });
  return { clientId: client, id: created.bot.id, token: created.token, secret: created.signing_secret };
}

export interface Received {
  headers: IncomingHttpHeaders;
  raw: Buffer;
}

/**
 * A local webhook receiver. `answer` gives the status of each request (by its 0-based number), with
 * an optional delay, or 'hang' to never answer.
 */
export async function startReceiver(
  answer: (n: number) => number | 'hang' | { status: number; delayMs: number },
) {
  const received: Received[] = [];
  const waiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const n = received.length;
      received.push({ headers: req.headers, raw: Buffer.concat(chunks) });
      for (const w of waiters.splice(0)) w();
      const a = answer(n);
      if (a === 'hang') return;
      const { status, delayMs } = typeof a === 'number' ? { status: a, delayMs: 0 } : a;
      const send = () =>
        res
          .writeHead(
            status,
            status >= 300 && status < 400 ? { location: 'http://127.0.0.1:9/elsewhere' } : {},
          )
          .end('{}');
      if (delayMs > 0) setTimeout(send, delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    received,
    /** Resolves once `count` requests have arrived. */
    async waitFor(count: number, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`receiver got ${received.length} of ${count} requests`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls `GET /deliveries` until `done` holds for the delivery (attempts are recorded asynchronously). */
export async function waitForDelivery(
  s: TestServer,
  botId: number,
  deliveryId: number,
  // biome-ignore lint/suspicious/noExplicitAny: as Reply.json.
  done: (d: any) => boolean,
) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await s.admin('GET', `/deliveries?bot_id=${botId}`);
    const d = res.json.deliveries.find((x: { id: number }) => x.id === deliveryId);
    if (d && done(d)) return d;
    if (Date.now() > deadline) throw new Error(`delivery ${deliveryId} did not settle: ${JSON.stringify(d)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const lead = { name: 'Asha Rao', email: 'asha@example.com', phone: '+91 98450 00000' };
