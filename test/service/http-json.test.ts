import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxAdmin } from '../../src-main/core/app/sections/sandbox-admin';
import { createKbClient } from '../../src-main/core/kb/api-client';
import { httpJson } from '../../src-main/core/service/http-json';
import { closePools } from '../../src-main/core/service/http-pool';
import { createRequestBudget } from '../../src-main/core/service/request-budget';

// The one HTTP helper of the core's undici callers, against a real local server that misbehaves on
// purpose: each failure below HTTP maps to the one code the app uses for it.

let server: Server;
let base: string;
let refused: string;
const arrived: (() => void)[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/json') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ echo: req.method }));
    } else if (req.url === '/text') {
      res.writeHead(502).end('<html>bad gateway</html>');
    } else if (req.url === '/reset') {
      req.socket.destroy();
    } else {
      // /silent: never answers; the test hears that the request arrived.
      arrived.shift()?.();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A port that was free a moment ago: nothing listens there.
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  refused = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
  await new Promise((r) => probe.close(r));
});
afterAll(async () => {
  await closePools();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('httpJson', () => {
  it('reads the reply whole: status, headers, text, and JSON when it is JSON', async () => {
    const r = await httpJson({ url: `${base}/json`, method: 'POST', json: { a: 1 } });
    expect(r.ok && { status: r.value.status, json: r.value.json }).toEqual({
      status: 200,
      json: { echo: 'POST' },
    });
    const t = await httpJson({ url: `${base}/text`, method: 'GET' });
    expect(t.ok && [t.value.status, t.value.text, t.value.json]).toEqual([
      502,
      '<html>bad gateway</html>',
      undefined,
    ]);
  });

  it('maps refused, reset, silence and abort to NETWORK, NETWORK, TIMEOUT and ABORTED', async () => {
    const no = await httpJson({ url: `${refused}/x`, method: 'GET' });
    expect(!no.ok && [no.error.code, no.error.reason]).toEqual(['NETWORK', 'ECONNREFUSED']);
    const reset = await httpJson({ url: `${base}/reset`, method: 'GET' });
    expect(!reset.ok && reset.error.code).toBe('NETWORK');
    const silent = await httpJson({ url: `${base}/silent`, method: 'GET', timeoutMs: 300 });
    expect(!silent.ok && [silent.error.code, silent.error.message]).toEqual([
      'TIMEOUT',
      'No progress for 0.3 s.',
    ]);
    const controller = new AbortController();
    const there = new Promise<void>((r) => arrived.push(r));
    const pending = httpJson({ url: `${base}/silent`, method: 'GET', signal: controller.signal });
    await there;
    controller.abort();
    const aborted = await pending;
    expect(!aborted.ok && aborted.error.code).toBe('ABORTED');
  });

  it('each caller names the same failure in its own words: the entry API and the sandbox admin', async () => {
    const kb = createKbClient({
      baseUrl: refused,
      token: 't',
      budget: createRequestBudget({ perMinute: 0 }),
    });
    const listed = await kb.list();
    expect(!listed.ok && listed.error).toMatchObject({
      code: 'KB-NETWORK',
      message: expect.stringContaining('(ECONNREFUSED)'),
    });
    const clock = await sandboxAdmin(refused, 'admin').clock();
    expect(!clock.ok && clock.error).toMatchObject({
      code: 'SANDBOX-UNREACHABLE',
      message: 'The local sandbox did not answer (ECONNREFUSED).',
    });
  });
});
