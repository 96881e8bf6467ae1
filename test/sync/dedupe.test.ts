import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dryRun } from '../../src-main/core/sync/dry-run/dry-run';
import { countingClient, makeEngine, startServer, tempDir, testClient } from './helpers';

describe('content dedupe', () => {
  it('links copies already live under another name, and a mirror delete keeps the remote while a path points at it', async () => {
    const server = await startServer({ pricePerGbMonthPaise: 50_000_000 });
    const dir = tempDir('dedupe-');
    const appDir = mkdtempSync(join(tmpdir(), 'dedupe-app-'));
    try {
      const seeder = testClient(server.baseUrl, server.demoKey);
      const shared = randomBytes(40_000);
      const seedPath = join(tempDir('dedupe-seed-'), 'original.png');
      writeFileSync(seedPath, shared);
      const original = await seeder.uploadFile({
        path: seedPath,
        size: shared.length,
        name: 'elsewhere/original.png',
        bucket: 'default',
        md5: createHash('md5').update(shared).digest('hex'),
      });
      expect(original.ok).toBe(true);
      if (!original.ok) return;
      writeFileSync(join(dir, 'a.png'), shared);
      writeFileSync(join(dir, 'b.png'), shared);
      writeFileSync(join(dir, 'c.png'), randomBytes(30_000));

      const plan = await dryRun({ client: seeder, path: dir, dedupe: true, mode: 'mirror' });
      expect(plan.ok).toBe(true);
      if (!plan.ok) return;
      expect(plan.value.plan.upload.count).toBe(1);
      expect(plan.value.plan.linked.count).toBe(2);
      expect(plan.value.bill.dedupeSaves.requests).toBe(2);
      expect(plan.value.bill.dedupeSaves.dailyRentPaise).toBeGreaterThan(0);

      const counted = countingClient(server.baseUrl, server.demoKey);
      let h = makeEngine(counted.client, { contentDedupe: () => true }, appDir);
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'default', mode: 'mirror' })).ok).toBe(true);
      expect((await h.engine.waitUntilSettled()).allDone).toBe(true);
      expect(counted.count('POST', '/files')).toBe(plan.value.plan.upload.count);
      const rows = h.engine.listFiles({ limit: 10 });
      const byName = Object.fromEntries(rows.map((r) => [r.name, r]));
      for (const n of ['a.png', 'b.png']) {
        expect(byName[n]).toMatchObject({
          state: 'LIVE',
          remoteId: original.value.id,
          remoteUrl: original.value.url,
          reasonCode: 'LINKED',
        });
        expect(byName[n]?.reason).toContain(`Linked to the existing copy ${original.value.url}`);
      }
      const me = await seeder.me();
      expect(me.ok && me.value.usage.bytes_used).toBe(plan.value.bill.bytesAfter);
      expect(me.ok && me.value.usage.daily_rent_paise).toBe(plan.value.bill.dailyRentAfterPaise);

      // Mirror: a.png deleted locally; b.png still points at the remote, which stays.
      await h.release();
      rmSync(join(dir, 'a.png'));
      h = makeEngine(counted.client, { contentDedupe: () => true }, appDir);
      await h.engine.start();
      expect((await h.engine.waitUntilSettled()).allDone).toBe(true);
      expect(h.engine.listFiles({ limit: 10 }).find((r) => r.name === 'a.png')?.reason).toMatch(
        /remote copy is kept: b\.png still points at it/,
      );
      expect(counted.count('DELETE')).toBe(0);
      expect((await seeder.getFile(original.value.id)).ok).toBe(true);

      // The last local path goes: so does the remote.
      await h.release();
      rmSync(join(dir, 'b.png'));
      h = makeEngine(counted.client, { contentDedupe: () => true }, appDir);
      await h.engine.start();
      expect((await h.engine.waitUntilSettled()).allDone).toBe(true);
      expect(counted.count('DELETE')).toBe(1);
      const gone = await seeder.getFile(original.value.id);
      expect(!gone.ok && gone.error.code).toBe('GONE');
      await h.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await server.stop();
    }
  }, 60_000);
});
