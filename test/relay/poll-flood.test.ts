import { connect, type Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { RELAY_POLL_LIMITS, type RunningRelay } from '../../src-main/relay/relay-server';
import { type Subscribable, untilEvent } from '../support/wait';
import { leadBody, relays, signBody } from './helpers';

// A stranger with the read token (every desk has it) floods the relay with long polls: the service's
// deliveries must still get in (issue 32: 256 polls held the 256 connections, 8 of 8 deliveries were
// refused). The sockets are raw, so nothing pools them: each poll holds a connection of its own.
const SECRET = 'bot-secret';
const r = relays();
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await r.cleanup();
});

const ticks = new EventTarget();
const tick = () => ticks.dispatchEvent(new Event('tick'));
const onTick: Subscribable<Event> = {
  subscribe(listener) {
    ticks.addEventListener('tick', listener);
    return () => ticks.removeEventListener('tick', listener);
  },
};

/**
 * A long poll on a connection of its own; `again`: it asks again the moment it is answered, as a
 * flooding client would (`npm run bench:relay` measures deliveries beside that flood).
 */
function poller(relay: RunningRelay, answers: { n: number; closed: number }, again = false): Socket {
  const socket = connect({ port: relay.port, host: '127.0.0.1' });
  socket.on('error', () => {});
  const ask = () =>
    socket.write(
      `GET /v1/feed?after=0&wait=25 HTTP/1.1\r\nHost: relay\r\nAuthorization: Bearer ${relay.token}\r\n\r\n`,
    );
  socket.on('data', (d) => {
    const replies = String(d).split('HTTP/1.1 200').length - 1;
    answers.n += replies;
    if (again) for (let i = 0; i < replies; i++) if (!socket.destroyed) ask();
    if (replies) tick();
  });
  socket.once('close', () => {
    answers.closed++;
    tick();
  });
  socket.once('connect', ask);
  sockets.push(socket);
  return socket;
}

it('stores every delivery while 300 long polls with the read token hold connections', async () => {
  let waiting = 0;
  const relay = await r.start({
    dataDir: r.dir(),
    onPollWaiting: () => {
      waiting++;
      tick();
    },
  });
  const answers = { n: 0, closed: 0 };
  for (let i = 0; i < 300; i++) poller(relay, answers);
  // Each of the 300 has been heard (waiting, answered or closed), and the polls fill their room.
  await untilEvent(
    onTick,
    'the 300 polls to have been heard',
    () => waiting + answers.n + answers.closed >= 300 && waiting >= RELAY_POLL_LIMITS.maxWaitersPerToken,
  );
  // The service waits 8 s for an answer (webhook document, section 6): past that a delivery failed.
  const results = await Promise.allSettled(
    Array.from({ length: 8 }, async (_, i) => {
      const body = leadBody(7_000 + i);
      const res = await fetch(relay.webhookUrl, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'x-service-signature': signBody(body, SECRET) },
        signal: AbortSignal.timeout(8_000),
      });
      await res.body?.cancel();
      return res.status;
    }),
  );
  expect(results.map((x) => (x.status === 'fulfilled' ? x.value : String(x.reason)))).toEqual(
    Array(8).fill(200),
  );
  expect(relay.stored()).toBe(8);
});

it('answers its oldest poll and closes it when every connection is busy, so a delivery gets in', async () => {
  let waiting = 0;
  // Polls allowed to fill every connection: only the guard's last resort stands between them and the door.
  const relay = await r.start({
    dataDir: r.dir(),
    limits: { maxConnections: 8 },
    maxWaiters: 8,
    maxWaitersPerToken: 8,
    onPollWaiting: () => {
      waiting++;
      tick();
    },
  });
  const answers = { n: 0, closed: 0 };
  const polls = Array.from({ length: 8 }, () => poller(relay, answers, true));
  await untilEvent(onTick, '8 polls waiting', () => waiting >= 8);
  const body = leadBody(7_100);
  const res = await fetch(relay.webhookUrl, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'x-service-signature': signBody(body, SECRET) },
    signal: AbortSignal.timeout(8_000),
  });
  expect(res.status).toBe(200);
  await res.body?.cancel();
  expect(relay.stored()).toBe(1);
  // The first poll was the one answered and let go.
  await untilEvent(onTick, 'the oldest poll closed', () => polls[0]!.destroyed || answers.closed > 0);
});

it("makes room by closing an answered poll's connection before a kept-alive delivery's", async () => {
  const relay = await r.start({ dataDir: r.dir(), limits: { maxConnections: 8 } });
  const hook = new URL(relay.webhookUrl).pathname;
  const post = (s: Socket, id: number) =>
    new Promise<string>((resolve, reject) => {
      const body = leadBody(id);
      if (s.destroyed || s.readableEnded) return reject(new Error('the delivery connection was closed'));
      s.once('data', (d) => resolve(String(d)));
      s.once('close', () => reject(new Error('the delivery connection was closed')));
      s.write(
        `POST ${hook} HTTP/1.1\r\nHost: relay\r\nContent-Type: application/json\r\nX-Service-Signature: ${signBody(body, SECRET)}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    });
  // The service's connection, kept alive between two deliveries: the oldest idle one.
  const service = connect({ port: relay.port, host: '127.0.0.1' });
  service.on('error', () => {});
  sockets.push(service);
  expect(await post(service, 7_201)).toMatch(/^HTTP\/1\.1 200/);
  // 7 polls answered at once (nothing waits at wait=0): the cap is full of idle connections.
  const answered = Array.from({ length: 7 }, () => {
    const s = connect({ port: relay.port, host: '127.0.0.1' });
    s.on('error', () => {});
    sockets.push(s);
    return new Promise<void>((resolve) => {
      s.once('data', () => resolve());
      s.write(
        `GET /v1/feed?after=0&wait=0 HTTP/1.1\r\nHost: relay\r\nAuthorization: Bearer ${relay.token}\r\n\r\n`,
      );
    });
  });
  await Promise.all(answered);
  // Newcomers take the polls' places, not the service's.
  for (let i = 0; i < 4; i++) {
    const s = connect({ port: relay.port, host: '127.0.0.1' });
    s.on('error', () => {});
    sockets.push(s);
    // Answered: the relay has taken this connection (and closed another for it).
    await new Promise<void>((resolve) => {
      s.once('data', () => resolve());
      s.write('GET /healthz HTTP/1.1\r\nHost: relay\r\n\r\n');
    });
  }
  expect(await post(service, 7_202)).toMatch(/^HTTP\/1\.1 200/);
  expect(relay.stored()).toBe(2);
});
