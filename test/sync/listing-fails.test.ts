import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileApiClient } from '../../src-main/core/service/file-api-client';
import { createRequestBudget } from '../../src-main/core/service/request-budget';
import { makeEngine, type SyncTestServer, startServer, tempDir } from './helpers';

/**
 * Every wait ends (issue 33): an upload whose reply is a 500 (it may have arrived) waits for its bucket's
 * listing, and a listing that fails every time used to be asked again for ever: the row stayed
 * UPLOADING and `sync --once` never returned. The real server behind a proxy that answers 500 to the
 * upload and to every listing; everything else passes through.
 */
let server: SyncTestServer;
let proxy: Server;
let proxyUrl: string;
let listings = 0;
beforeAll(async () => {
  server = await startServer();
  const target = new URL(server.baseUrl);
  proxy = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === '/api/assets/v1/files' && (req.method === 'POST' || req.method === 'GET')) {
      if (req.method === 'GET') listings++;
      req.resume();
      req.on('end', () => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ data: null, errors: ['planted'], code: 'INTERNAL' }));
      });
      return;
    }
    const out = httpRequest(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    req.pipe(out);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => proxy.close(r));
  await server.stop();
});

describe('a bucket listing that fails every time', () => {
  it('ends the file FAILED with its reason after the policy attempts, and the run settles', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.png'), randomBytes(1024));
    const client = createFileApiClient({
      baseUrl: proxyUrl,
      apiKey: server.demoKey,
      budget: createRequestBudget({ perMinute: 0 }),
      retries: 0,
    });
    const h = makeEngine(client, { backoff: { baseMs: 10, capMs: 40, maxAttempts: 4 } });
    try {
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'never-listed' })).ok).toBe(true);
      const summary = await h.engine.waitUntilSettled();
      expect(summary.allDone).toBe(false);
      const [row] = h.engine.listFiles();
      expect(row?.state).toBe('FAILED');
      expect(row?.reasonCode).toBe('RECONCILE-FAILED');
      expect(row?.reason).toContain('Its outcome could not be checked: listing bucket never-listed failed');
      expect(row?.nextRetryAt).toBeNull();
      expect(listings).toBeGreaterThanOrEqual(3);
      expect(h.engine.activity({ limit: 50 }).some((a) => a.kind === 'gave-up')).toBe(true);
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
