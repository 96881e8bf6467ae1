import { createSocket } from 'node:dgram';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeMessage } from '../../../src-main/core/internal';

/**
 * A stranger on the network (issue 32), beside the desks of a row: it has no office key. It finds the desks
 * where they announce themselves (the local folder, `<id>.json`: port and scope), and sends each of them,
 * each second, a heartbeat claiming to hold the office since the epoch (a pause of 60 s, a ceiling of 1, 32
 * desks), every 200 ms a grant of 64 places at a ceiling of 10,000, and a `bye` in the name of every other
 * desk. Counted: the datagrams it sent.
 */
export function startStranger(folder: string) {
  const socket = createSocket('udp4');
  socket.on('error', () => {});
  const id = 'ee00000000000000';
  let seq = 1;
  let sent = 0;
  let term = 900;
  let ticks = 0;
  const desks = (): { id: string; port: number; scope: string }[] => {
    try {
      return readdirSync(folder).flatMap((n) => {
        try {
          return [
            JSON.parse(readFileSync(join(folder, n), 'utf8')) as { id: string; port: number; scope: string },
          ];
        } catch {
          return [];
        }
      });
    } catch {
      return [];
    }
  };
  const send = (data: Buffer, port: number) => {
    sent++;
    socket.send(data, port, '127.0.0.1');
  };
  const timer = setInterval(() => {
    const all = desks();
    const everySecond = ticks++ % 5 === 0;
    if (everySecond) term++;
    for (const d of all) {
      if (everySecond) {
        const hb = {
          t: 'hb' as const,
          from: id,
          term,
          seq: seq++,
          start: 0,
          name: 'stranger',
          ver: '0',
          demand: { now: 0, sync: 0, bg: 0 },
          used: 0,
          holder: id,
          office: { ceiling: 1, desks: 32, pauseMs: 60_000, shares: [] },
        };
        send(encodeMessage(hb, d.scope, null), d.port);
        for (const other of all)
          if (other.id !== d.id)
            send(encodeMessage({ t: 'bye', from: other.id, term, seq: seq++ }, d.scope, null), d.port);
      }
      const grant = {
        t: 'grant' as const,
        from: id,
        term,
        seq: seq++,
        to: d.id,
        n: 64,
        ttlMs: 10_000,
        probe: false,
        share: 10_000,
        ceiling: 10_000,
        desks: 1,
        pauseMs: 0,
      };
      send(encodeMessage(grant, d.scope, null), d.port);
    }
  }, 200);
  return {
    stop() {
      clearInterval(timer);
      socket.close();
      return { sent };
    },
  };
}
