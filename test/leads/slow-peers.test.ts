import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLeadsStore } from '../../src-main/core/leads/leads-store';
import { LEADS_MIGRATIONS } from '../../src-main/core/leads/migrations';
import { type RunningReceiver, startLeadReceiver } from '../../src-main/core/leads/receiver';
import { type Db, openDatabase } from '../../src-main/shared-node/sqlite';
import { exchange } from '../fuzz/raw-client';

const SECRET = 'secret-of-the-bot';
const sign = (body: string) => `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
const lead = (conversationId: number) =>
  JSON.stringify({
    event: 'LEAD-CAPTURED',
    bot: { id: 1, name: 'Bot' },
    lead: { name: 'Asha', email: 'a@example.com', phone: '1', note: null, asked_for_a_person: false },
    conversation: { id: conversationId },
  });

/**
 * The service waits 8 s for a reply: whatever a peer does, a socket that is not a prompt delivery
 * is let go well within that. The bound below is only a ceiling (Node's default check ran every
 * 30 s); the tests wait on the sockets' own close events.
 */
const CEILING_MS = 15_000;

function closedWithin(socket: Socket, ms = CEILING_MS): Promise<void> {
  return new Promise((resolve, reject) => {
    if (socket.destroyed) return resolve();
    const timer = setTimeout(() => reject(new Error(`the server kept the socket open past ${ms} ms`)), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Resolves once `n` of the sockets have closed (whichever they are). */
function someClosed(sockets: Socket[], n: number, ms = CEILING_MS): Promise<void> {
  return new Promise((resolve, reject) => {
    let closed = sockets.filter((s) => s.destroyed).length;
    if (closed >= n) return resolve();
    const timer = setTimeout(() => reject(new Error(`${closed} of ${n} sockets closed within ${ms} ms`)), ms);
    for (const s of sockets)
      if (!s.destroyed)
        s.once('close', () => {
          if (++closed === n) {
            clearTimeout(timer);
            resolve();
          }
        });
  });
}

describe('lead receiver and slow or greedy peers', () => {
  let dir: string;
  let db: Db;
  let receiver: RunningReceiver;
  const sockets: Socket[] = [];

  const start = async (extra: Partial<Parameters<typeof startLeadReceiver>[0]> = {}) => {
    receiver = await startLeadReceiver({
      store: createLeadsStore(db),
      keys: () => [{ botId: 1, secret: SECRET }],
      onLead: () => {},
      ...extra,
    });
  };
  const open = (first = '') => {
    const socket = connect({ port: receiver.port, host: '127.0.0.1' });
    socket.on('error', () => {});
    // Read (and drop) whatever comes back: a paused socket would never see the server's close.
    socket.resume();
    socket.setNoDelay(true);
    if (first) socket.write(first);
    sockets.push(socket);
    return socket;
  };
  const deliver = async (conversationId: number) => {
    const body = lead(conversationId);
    const res = await request(receiver.url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'x-service-signature': sign(body) },
    });
    await res.body.dump();
    return res.statusCode;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'leads-slow-'));
    db = openDatabase(join(dir, 'app.sqlite'), LEADS_MIGRATIONS);
  });
  afterEach(async () => {
    for (const s of sockets.splice(0)) s.destroy();
    await receiver.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('drops stalled headers, a stalled body and an idle connection within the 8 s the service waits', async () => {
    await start();
    const idle = open();
    const headers = open('POST /webhooks/leads HTTP/1.1\r\nHost: x\r\nX-Service-Signature: sha');
    const body = open('POST /webhooks/leads HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n\r\n{"event":');
    await Promise.all([closedWithin(idle), closedWithin(headers), closedWithin(body)]);
  });

  it('lands signed deliveries while 200 sockets dribble headers, and lets every dribbler go', async () => {
    await start();
    const slow = Array.from({ length: 200 }, () => open('POST /webhooks/leads HTTP/1.1\r\nHost: x\r\n'));
    const drip = setInterval(() => {
      for (const s of slow) if (!s.destroyed) s.write('X-a: b\r\n');
    }, 500);
    try {
      const statuses: number[] = [];
      for (let i = 1; i <= 20; i++) statuses.push(await deliver(i));
      expect(statuses).toEqual(Array(20).fill(200));
      expect(db.prepare('SELECT COUNT(*) AS n FROM leads').get()).toEqual({ n: 20 });
      await Promise.all(slow.map((s) => closedWithin(s)));
    } finally {
      clearInterval(drip);
    }
  });

  it('with 300 idle sockets open, the cap holds and a real delivery still gets in', async () => {
    await start();
    // The probe: a local process opens 300 sockets and sends nothing. Node's own cap closed every new
    // connection while full, the deliveries with them; now the oldest idle ones make room.
    const idle = Array.from({ length: 300 }, () => open());
    // 44 are over the cap: the server closes 44 of them (the oldest), which proves it counted them all.
    await someClosed(idle, 44);
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i++) statuses.push(await deliver(300 + i));
    expect(statuses).toEqual(Array(5).fill(200));
    expect(db.prepare('SELECT COUNT(*) AS n FROM leads').get()).toEqual({ n: 5 });
    expect(idle.filter((s) => !s.destroyed).length).toBeLessThanOrEqual(256);
  });

  it('past the cap closes the oldest idle connection, and refuses a newcomer only when all are busy', async () => {
    await start({ maxConnections: 8 });
    // Eight kept-alive connections, each answered once, so the server has surely counted them.
    const held = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const s = open();
        const answered = new Promise<string>((resolve) => s.once('data', (d) => resolve(String(d))));
        s.write(`GET /webhooks/leads HTTP/1.1\r\nHost: x\r\n\r\n`);
        return { s, first: await answered };
      }),
    );
    expect(held.every((h) => h.first.startsWith('HTTP/1.1 405'))).toBe(true);
    const ninth = await exchange(receiver.port, 'GET /webhooks/leads HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(ninth.statuses).toEqual([405]);
    const heldSockets = held.map((h) => h.s);
    await someClosed(heldSockets, 1);
    expect(heldSockets.filter((s) => s.destroyed)).toHaveLength(1);

    // Now eight requests in progress (bodies that never finish): nothing idle to close.
    for (const s of heldSockets) s.destroy();
    await someClosed(heldSockets, 8);
    const busy = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const s = open();
        // "100 Continue" is written when the server has read the headers: the request is under way.
        const going = new Promise<void>((resolve) => s.once('data', () => resolve()));
        s.write(
          'POST /webhooks/leads HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 100\r\n\r\n',
        );
        await going;
        return s;
      }),
    );
    const tenth = await exchange(receiver.port, 'GET /webhooks/leads HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(tenth).toMatchObject({ statuses: [], closed: true });
    expect(busy.every((s) => !s.destroyed)).toBe(true);
  });

  it('meets a greedy address with its own cap and a rate limit the service retries', async () => {
    await start({ peerLimits: { maxPerPeer: 4, requestsPerPeerPerMinute: 5, limitLoopback: true } });
    const mine = Array.from({ length: 6 }, () => open());
    await Promise.all(mine.slice(0, 2).map((s) => closedWithin(s)));
    expect(mine.slice(2).every((s) => !s.destroyed)).toBe(true);
    for (const s of mine) s.destroy();
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++) statuses.push(await deliver(400 + i));
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});
