import { connect, type Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import type { RunningRelay } from '../../src-main/relay/relay-server';
import { deliver, leadBody, readFeed, relays, signBody } from './helpers';

// Slowloris against the relay: it keeps the desktop receiver's limits (webhook-limits.ts), so a
// stalled or dribbling peer is let go within the 8 s the service waits, while deliveries land. The
// ceiling below only turns a socket that is never closed into a failure; the tests await close events.
const CEILING_MS = 15_000;
const SECRET = 'bot-secret';
const r = relays();
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await r.cleanup();
});

function open(relay: RunningRelay, first = ''): Socket {
  const socket = connect({ port: relay.port, host: '127.0.0.1' });
  socket.on('error', () => {});
  socket.resume();
  if (first) socket.write(first);
  sockets.push(socket);
  return socket;
}
const closed = (s: Socket) =>
  new Promise<void>((resolve, reject) => {
    if (s.destroyed) return resolve();
    const t = setTimeout(() => reject(new Error(`kept open past ${CEILING_MS} ms`)), CEILING_MS);
    s.once('close', () => {
      clearTimeout(t);
      resolve();
    });
  });

it('lets stalled headers, a stalled body and idle connections go, while 200 dribblers fail to crowd out deliveries', async () => {
  const relay = await r.start({ dataDir: r.dir() });
  const hook = new URL(relay.webhookUrl).pathname;
  const stalled = [
    open(relay),
    open(relay, `POST ${hook} HTTP/1.1\r\nHost: x\r\nX-Service-Signature: sha`),
    open(relay, `POST ${hook} HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n\r\n{"event":`),
  ];
  const slow = Array.from({ length: 200 }, () => open(relay, `POST ${hook} HTTP/1.1\r\nHost: x\r\n`));
  const drip = setInterval(() => {
    for (const s of slow) if (!s.destroyed) s.write('X-a: b\r\n');
  }, 500);
  try {
    const statuses: number[] = [];
    for (let i = 1; i <= 20; i++) {
      const body = leadBody(i);
      statuses.push(
        (await deliver(relay.webhookUrl, body, { 'x-service-signature': signBody(body, SECRET) })).status,
      );
    }
    expect(statuses).toEqual(Array(20).fill(200));
    expect(relay.stored()).toBe(20);
    await Promise.all([...stalled, ...slow].map(closed));
  } finally {
    clearInterval(drip);
  }
});

it('keeps a long poll open past the request deadline: the deadline is for receiving a request, not for answering it', async () => {
  const relay = await r.start({ dataDir: r.dir() });
  // 9 s is past the 7 s request deadline; the relay's own timer answers, empty.
  const feed = await readFeed(relay, 'after=0&wait=9');
  expect(feed.status).toBe(200);
  expect(feed.json.deliveries).toEqual([]);
});

it('with 300 idle sockets open, closes the oldest ones and still takes deliveries and long polls', async () => {
  const relay = await r.start({ dataDir: r.dir() });
  const idle = Array.from({ length: 300 }, () => open(relay));
  // The server closes 44 of them (over its 256), which shows it counted them all.
  await new Promise<void>((resolve) => {
    let n = 0;
    for (const s of idle) s.once('close', () => ++n === 44 && resolve());
  });
  const body = leadBody(9_001);
  expect(
    (await deliver(relay.webhookUrl, body, { 'x-service-signature': signBody(body, SECRET) })).status,
  ).toBe(200);
  expect((await readFeed(relay, 'after=0')).json.deliveries).toHaveLength(1);
  expect(idle.filter((s) => !s.destroyed).length).toBeLessThanOrEqual(256);
});
