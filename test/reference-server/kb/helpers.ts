import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerOptionsInput } from '../../../src-main/reference-server/options';
import { startReferenceServer } from '../../../src-main/reference-server/server';

export interface Reply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: replies are checked field by field by the tests' assertions.
  json: any;
  headers: Headers;
}

async function call(url: string, init: RequestInit): Promise<Reply> {
  const res = await fetch(url, init);
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json, headers: res.headers };
}

/** A real server on port 0 in a temp folder; `stop` closes it and removes the folder. */
export async function startServer(options: ServerOptionsInput = {}) {
  const dir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'kb-test-'));
  const server = await startReferenceServer({ ...options, dataDir: dir });
  return {
    server,
    dir,
    admin: (method: string, path: string, body?: unknown, token = server.adminToken) =>
      call(`${server.baseUrl}/__admin/v1${path}`, {
        method,
        headers: {
          'x-admin-token': token,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    /** An entry API call; `body` given as a string is sent as is (for malformed JSON). */
    kb: (token: string | null, method: string, path: string, body?: unknown) =>
      call(`${server.baseUrl}/api/mebot/kb/entries${path}`, {
        method,
        headers: {
          ...(token === null ? {} : { 'x-bot-token': token }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      }),
    async stop(keepDir = false) {
      await server.close();
      if (!keepDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type TestServer = Awaited<ReturnType<typeof startServer>>;

let clientSeq = 0;

/** A new client (its own rate-limit budget) with one bot. */
export async function newBot(s: TestServer, webhookUrl?: string | null, clientId?: number) {
  let client = clientId;
  if (client === undefined) {
    const created = await s.admin('POST', '/clients', { name: `kb client ${++clientSeq}` });
    if (created.status !== 201)
      throw new Error(`POST /clients answered ${created.status}: ${JSON.stringify(created.json)}`);
    client = created.json.client.id as number;
  }
  const res = await s.admin('POST', '/bots', {
    client_id: client,
    name: 'Bot',
    business_name: 'Biz',
    ...(webhookUrl === undefined ? {} : { webhook_url: webhookUrl }),
  });
  if (res.status !== 201) throw new Error(`POST /bots answered ${res.status}: ${JSON.stringify(res.json)}`);
  return {
    clientId: client,
    id: res.json.bot.id as number,
    token: res.json.token as string,
    secret: res.json.signing_secret as string,
  };
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
