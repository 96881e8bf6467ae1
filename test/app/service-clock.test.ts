import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClock } from '../../src-main/core/app/service-clock';
import type { Connection } from '../../src-main/core/service/connection';
import type { ServiceClock } from '../../src-shared/contract';

// A real HTTP server whose Date header runs two days and three hours ahead, and real undici requests
// to it (the service client's transport): the clock must read the offset from the replies alone.
const AHEAD_MS = (2 * 24 + 3) * 3_600_000;

describe('the service clock from Date headers', () => {
  let server: Server;
  let baseUrl: string;
  let pool: Pool;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.sendDate = false;
      res.writeHead(200, {
        Date: new Date(Date.now() + AHEAD_MS).toUTCString(),
        'content-type': 'text/plain',
      });
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    pool = new Pool(baseUrl);
  });
  afterAll(async () => {
    await pool.close();
    await new Promise((r) => server.close(r));
  });

  const account = (url: string): Connection => ({
    kind: 'account',
    baseUrl: url,
    apiKey: 'k',
    cacheSource: url,
    origin: 'env',
    close: async () => {},
  });
  const get = async () => (await pool.request({ path: '/api/assets/v1/me', method: 'GET' })).body.text();

  it('follows the Date header of the connected service, once per noteworthy move', async () => {
    const seen: ServiceClock[] = [];
    const clock = createServiceClock({ onChange: (c) => seen.push(c) });
    try {
      await get();
      expect(clock.get().source).toBe('machine'); // not following anything yet
      clock.follow(account(baseUrl));
      await get();
      await get();
      expect(clock.get().source).toBe('date-header');
      expect(Math.abs(clock.get().offsetMs - AHEAD_MS)).toBeLessThan(1500);
      expect(Math.abs(clock.now() - (Date.now() + AHEAD_MS))).toBeLessThan(1500);
      expect(seen).toHaveLength(1); // the second reply moved it by less than the header's rounding
    } finally {
      clock.close();
    }
  });

  it('ignores other origins, and the sandbox (its Date header is the machine’s; its admin clock counts)', async () => {
    const clock = createServiceClock({ onChange: () => {} });
    try {
      clock.follow(account('http://127.0.0.1:1'));
      await get();
      expect(clock.get()).toMatchObject({ source: 'machine', offsetMs: 0 });
      clock.follow({ ...account(baseUrl), kind: 'sandbox' });
      await get();
      expect(clock.get()).toMatchObject({ source: 'machine', offsetMs: 0 });
    } finally {
      clock.close();
    }
  });
});
