import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, expect, it } from 'vitest';
import { closePools, poolFor } from '../../src-main/core/service/http-pool';

afterAll(() => closePools());

// The engine may send up to 32 uploads at once (sync --concurrency); a request the pool holds back
// for want of a connection sends nothing, and an upload's idle watchdog then fails it.
it('gives every request in flight its own connection, beyond the eight it used to cap at', async () => {
  const atOnce = 20;
  const held: ServerResponse[] = [];
  // The server answers only once all of them are in: a pool that holds some back never gets there
  // (the test's timeout is then the failure).
  const server = createServer((req, res) => {
    req.resume();
    held.push(res);
    if (held.length === atOnce) for (const r of held) r.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const pool = await poolFor(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const replies = await Promise.all(
      Array.from({ length: atOnce }, () =>
        pool.request({ method: 'POST', path: '/files', body: 'x' }).then((r) => r.body.text()),
      ),
    );
    expect(replies).toEqual(Array(atOnce).fill('ok'));
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}, 10_000);
