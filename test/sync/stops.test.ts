import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRequestBudget } from '../../src-main/core/service/request-budget';
import type { SyncEvents } from '../../src-main/core/sync/events';
import { countingClient, makeEngine, md5Of, startServer, tempDir, until } from './helpers';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the engine stops when the service refuses the client', () => {
  it('a key revoked mid-run: stopped (auth), nothing more sent, rows kept; a new key resumes', async () => {
    const server = await startServer();
    const dir = tempDir();
    const appDir = mkdtempSync(join(tmpdir(), 'sync-app-'));
    const count = 30;
    for (let i = 0; i < count; i++) writeFileSync(join(dir, `f-${i}.png`), randomBytes(1024 + i));
    try {
      const minted = await server.admin<{ api_key: string; key_id: number }>('POST', '/clients/1/keys');
      expect(minted.status).toBe(201);
      // 10 requests a second, so the revocation lands while most files are still waiting.
      const first = countingClient(
        server.baseUrl,
        minted.json.api_key,
        createRequestBudget({ perMinute: 600 }),
      );
      const h = makeEngine(first.client, { concurrency: 2 }, appDir);
      const stops: SyncEvents['stopped'][] = [];
      let sentAtStop = -1;
      h.engine.on('stopped', (s) => {
        stops.push(s);
        sentAtStop = first.sent.length;
      });
      let revoked: Promise<unknown> | null = null;
      h.engine.on('file', (e) => {
        if (e.to === 'LIVE' && !revoked && h.engine.listFiles({ state: 'LIVE' }).length >= 5)
          revoked = server.admin('DELETE', `/keys/${minted.json.key_id}`);
      });
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'keys' })).ok).toBe(true);
      const summary = await h.engine.waitUntilSettled();
      await revoked;
      expect(summary.stopped?.reaction).toBe('auth');
      expect(summary.allDone).toBe(false);
      expect(stops).toHaveLength(1);
      expect(h.engine.activity().find((a) => a.kind === 'stopped')?.message).toMatch(
        /API key was refused.*Log in again/,
      );

      // Nothing more is sent, even with work left and time passing.
      await pause(400);
      expect(first.sent.slice(sentAtStop)).toEqual([]);
      const rows = h.engine.listFiles({ limit: 1000 });
      const live = rows.filter((r) => r.state === 'LIVE').length;
      expect(live).toBeGreaterThanOrEqual(5);
      expect(live).toBeLessThan(count);
      // The refused files wait as they were (QUEUED, or UPLOADING with an open intent): none failed.
      expect(rows.filter((r) => r.state === 'FAILED')).toEqual([]);
      expect(rows.every((r) => ['LIVE', 'QUEUED', 'NEW', 'UPLOADING'].includes(r.state))).toBe(true);
      await h.release();

      // A new key, a new engine over the same rows: the rest goes up, each file exactly once.
      const fresh = await server.admin<{ api_key: string }>('POST', '/clients/1/keys');
      const second = countingClient(server.baseUrl, fresh.json.api_key);
      const again = makeEngine(second.client, {}, appDir);
      await again.engine.start();
      const done = await again.engine.waitUntilSettled();
      expect(done.allDone).toBe(true);
      const remote = await server.liveFiles('keys');
      expect(remote).toHaveLength(count);
      expect(new Set(remote.map((f) => f.name)).size).toBe(count);
      for (const f of remote) expect(f.hash).toBe(md5Of(join(dir, f.name)));
      // Only what was missing was sent (a copy stored just before the stop is adopted, not sent twice).
      expect(second.count('POST', '/files')).toBeLessThanOrEqual(count - live);
      await again.release();
    } finally {
      rmSync(appDir, { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
      await server.stop();
    }
  }, 60_000);

  it('an account closed for unpaid rent: stopped (closed), everything stops, the message says so', async () => {
    // A price that makes a few KB cost rent every day, so arrears (and the closing) come quickly.
    const server = await startServer({ pricePerGbMonthPaise: 1_000_000_000 });
    const dir = tempDir();
    const appDir = mkdtempSync(join(tmpdir(), 'sync-app-'));
    for (let i = 0; i < 3; i++) writeFileSync(join(dir, `kept-${i}.png`), randomBytes(4096));
    try {
      const c = countingClient(server.baseUrl, server.demoKey);
      const h = makeEngine(c.client, { watch: true, stabilityMs: 100 }, appDir);
      const stops: SyncEvents['stopped'][] = [];
      let sentAtStop = -1;
      h.engine.on('stopped', (s) => {
        stops.push(s);
        sentAtStop = c.sent.length;
      });
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'rent' })).ok).toBe(true);
      await until('three files live', () => h.engine.listFiles({ state: 'LIVE' }).length === 3);

      // The wallet emptied, then 32 days: arrears from the first midnight, closed 30 days later.
      expect((await server.admin('POST', '/clients/1/wallet', { amount_paise: -10_000 })).status).toBe(200);
      expect((await server.admin('POST', '/clock/advance', { seconds: 32 * 86_400 })).status).toBe(200);
      writeFileSync(join(dir, 'after-closing.png'), randomBytes(2048));

      await until('the engine stopped', () => stops.length > 0);
      expect(stops[0]).toMatchObject({ reaction: 'closed', code: 'CLIENT-CLOSED' });
      expect(stops[0]!.message).toMatch(/closed/i);
      expect(h.engine.state.stopped?.reaction).toBe('closed');
      expect(h.engine.activity().find((a) => a.kind === 'stopped')?.message).toMatch(
        /Syncing stopped: the account is closed\./,
      );
      const summary = await h.engine.waitUntilSettled();
      expect(summary.stopped?.code).toBe('CLIENT-CLOSED');
      expect(summary.allDone).toBe(false);
      // The file that met the closed account waits (not failed), and nothing more is sent, new files included.
      expect(h.engine.listFiles({ state: 'FAILED' })).toEqual([]);
      writeFileSync(join(dir, 'later.png'), randomBytes(2048));
      await pause(600);
      expect(c.sent.length).toBe(sentAtStop);
      await h.release();

      // A new engine on the closed account stops at /me and sends nothing else.
      const next = countingClient(server.baseUrl, server.demoKey);
      const restarted = makeEngine(next.client, {}, appDir);
      await restarted.engine.start();
      const s2 = await restarted.engine.waitUntilSettled();
      expect(s2.stopped).toMatchObject({ reaction: 'closed', code: 'CLIENT-CLOSED' });
      expect(next.sent).toEqual(['GET /api/assets/v1/me']);
      await restarted.release();
    } finally {
      rmSync(appDir, { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
      await server.stop();
    }
  }, 60_000);
});
