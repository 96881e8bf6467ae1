import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileApiClient } from '../../src-main/core/service/file-api-client';
import { closePools } from '../../src-main/core/service/http-pool';
import { createRequestBudget, type Lane } from '../../src-main/core/service/request-budget';
import { makeEngine } from '../sync/helpers';
import { serverWithClient } from './helpers';

// The request budget's lanes against the real reference server at a low limit (60 a minute): an
// upload batch through the sync engine, with a background listing walk running beside it on the
// same budget (one address, one budget), finishes within the window it needs alone.

const LIMIT = 60;
const PER_MINUTE = 55; // the app's margin under the service's limit, as 115 is under 120
const BATCH = 50; // alone: 50 uploads and the engine's start-up requests fit one window of 55

let env: Awaited<ReturnType<typeof serverWithClient>>;
let dir: string;
beforeAll(async () => {
  env = await serverWithClient({ ratePerMinute: LIMIT });
  await env.seed(5_000); // 50 pages for the walk: far more than a window's worth
  dir = mkdtempSync(join(tmpdir(), 'lanes-'));
  for (let i = 0; i < BATCH; i++) writeFileSync(join(dir, `f${i}.txt`), randomBytes(200 + i));
});
afterAll(async () => {
  await closePools();
  await env.srv.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('request budget lanes against the reference server', () => {
  it('an upload batch finishes in its own window while a background walk runs beside it', {
    timeout: 150_000,
  }, async () => {
    const budget = createRequestBudget({ perMinute: PER_MINUTE });
    const grants: { at: number; lane: Lane; method: string }[] = [];
    const statuses: number[] = [];
    let walkGranted: () => void = () => undefined;
    const walkUnderWay = new Promise<void>((resolve) => (walkGranted = resolve));
    const client = createFileApiClient({
      baseUrl: env.srv.baseUrl,
      apiKey: env.apiKey,
      budget,
      timeoutMs: 30_000,
      onRequest: (method, _path, lane) => {
        grants.push({ at: Date.now(), lane, method });
        if (lane === 'background') walkGranted();
      },
      onReply: (_m, _p, status) => statuses.push(status),
    });
    // The walk: listing pages one after another in the background lane, as the remote index does.
    const stopWalk = new AbortController();
    const walk = (async () => {
      for (let page = 1; !stopWalk.signal.aborted; page = (page % 50) + 1)
        await client.listFiles({ page, perPage: 100, lane: 'background', signal: stopWalk.signal });
    })();
    // The walk is under way first: its first request was granted and sent.
    await walkUnderWay;
    const h = makeEngine(client, { service: 'lanes-test' });
    try {
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'lanes' })).ok).toBe(true);
      const settled = await h.engine.waitUntilSettled();
      expect(settled.allDone).toBe(true);
      expect(settled.counts.LIVE).toBe(BATCH);
    } finally {
      stopWalk.abort();
      await h.close();
    }
    await walk;
    const uploads = grants.filter((g) => g.method === 'POST');
    expect(uploads.length).toBe(BATCH);
    expect(uploads.every((g) => g.lane === 'sync')).toBe(true);
    // The walk had its place before the engine asked for any.
    expect(grants[0]!.lane).toBe('background');
    const start = grants[0]!.at;
    const windowsUsed = Math.floor((uploads.at(-1)!.at - start) / 60_000) + 1;
    expect(windowsUsed).toBe(1);
    // The walk went on beside it, within its share of the window (5% of 55: 2 requests).
    const walkInWindow = grants.filter((g) => g.lane === 'background' && g.at - start < 60_000);
    expect(walkInWindow.length).toBeGreaterThanOrEqual(1);
    expect(walkInWindow.length).toBeLessThanOrEqual(2);
    // And the service never had to refuse anything.
    expect(statuses).not.toContain(429);
  });
});
