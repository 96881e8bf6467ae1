import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dryRun } from '../../src-main/core/sync/dry-run/dry-run';
import { formatIstDate, parseIst } from '../../src-shared/domain/ist-time';
import { countingClient, makeEngine, startServer, tempDir, testClient } from './helpers';

// 1 paisa a day per ~644 bytes: a folder of a few MB has a rent that rounding cannot hide.
const PRICE = 50_000_000;

describe('dry run', () => {
  it('500 mixed files against a server holding some: every count and the rent equal the sync and /me', async () => {
    const server = await startServer({ pricePerGbMonthPaise: PRICE });
    const dir = tempDir('dry-run-');
    try {
      const seeder = testClient(server.baseUrl, server.demoKey);
      const put = async (name: string, bytes: Buffer) => {
        const path = join(tempDir('dry-seed-'), name.replace(/\//g, '_'));
        writeFileSync(path, bytes);
        const md5 = createHash('md5').update(bytes).digest('hex');
        const r = await seeder.uploadFile({ path, size: bytes.length, name, bucket: 'default', md5 });
        expect(r.ok).toBe(true);
      };
      mkdirSync(join(dir, 'sub/deep'), { recursive: true });
      const expected = { skipExt: 0, skipEmpty: 0, onServiceSame: 0, onServiceOther: 0, identical: 0 };
      let i = 0;
      const next = () => (i++ % 3 === 0 ? 'sub/' : i % 3 === 1 ? 'sub/deep/' : '');
      // 380 plain files of varied size and type.
      for (let k = 0; k < 380; k++)
        writeFileSync(
          join(dir, `${next()}f-${k}.${['txt', 'png', 'json', 'pdf'][k % 4]}`),
          randomBytes(200 + k * 37),
        );
      // 30 refused extensions, 20 empty files.
      for (let k = 0; k < 30; k++, expected.skipExt++)
        writeFileSync(join(dir, `${next()}x-${k}.exe`), randomBytes(50));
      for (let k = 0; k < 20; k++, expected.skipEmpty++) writeFileSync(join(dir, `${next()}e-${k}.txt`), '');
      // 10 pairs of identical content inside the folder.
      for (let k = 0; k < 10; k++, expected.identical++) {
        const b = randomBytes(900 + k);
        writeFileSync(join(dir, `pair-${k}-a.txt`), b);
        writeFileSync(join(dir, `sub/pair-${k}-b.txt`), b);
      }
      // 25 already on the server under the same name, 15 under another name.
      for (let k = 0; k < 25; k++, expected.onServiceSame++) {
        const b = randomBytes(1500 + k);
        writeFileSync(join(dir, `held-${k}.png`), b);
        await put(`held-${k}.png`, b);
      }
      for (let k = 0; k < 15; k++, expected.onServiceOther++) {
        const b = randomBytes(1700 + k);
        writeFileSync(join(dir, `copy-${k}.jpg`), b);
        await put(`elsewhere/original-${k}.jpg`, b);
      }
      // 380 + 30 + 20 + 20 + 25 + 15 = 490; 10 ignored temp files bring the folder to 500 entries.
      for (let k = 0; k < 10; k++) writeFileSync(join(dir, `draft-${k}.tmp`), 'x');

      const reader = countingClient(server.baseUrl, server.demoKey);
      const report = await dryRun({ client: reader.client, path: dir });
      expect(report.ok).toBe(true);
      if (!report.ok) return;
      const { plan, bill, timing } = report.value;
      // No upload request: /me and one listing page.
      expect(reader.count('POST')).toBe(0);
      expect(reader.sent).toEqual(['GET /api/assets/v1/me', 'GET /api/assets/v1/files']);
      expect(report.value.readRequests).toBe(2);
      // The 25 held under the same name are adopted when the folder is added, not sent.
      const uploads = 380 + 20 + 15;
      expect(plan.upload.count).toBe(uploads);
      expect(plan.skip['EXTENSION-NOT-ALLOWED']?.count).toBe(expected.skipExt);
      expect(plan.skip.EMPTY?.count).toBe(expected.skipEmpty);
      expect(plan.skip.EMPTY?.examples).toHaveLength(3);
      expect(plan.onService).toMatchObject({ count: 15, sameName: 0 });
      expect(plan.identical).toHaveLength(expected.identical);
      expect(plan.alreadyLive.count).toBe(25);
      expect(timing.requests).toBe(uploads);
      expect(timing.assumed.join(' ')).toMatch(/no bandwidth limit/);
      const meBefore = await seeder.me();
      expect(meBefore.ok && bill.bytesNow === meBefore.value.usage.bytes_used).toBe(true);
      expect(bill.dedupeSaves.requests).toBe(15);
      expect(bill.dedupeSaves.dailyRentPaise).toBeGreaterThan(0);

      // The sync itself.
      const syncer = countingClient(server.baseUrl, server.demoKey);
      const h = makeEngine(syncer.client, { stabilityMs: 0 });
      try {
        await h.engine.start();
        expect((await h.engine.addFolder({ path: dir, bucket: 'default' })).ok).toBe(true);
        const summary = await h.engine.waitUntilSettled();
        expect(summary.allDone).toBe(true);
        expect(syncer.count('POST', '/files')).toBe(plan.upload.count);
        expect(summary.counts.LIVE).toBe(plan.upload.count + plan.alreadyLive.count);
        const rows = h.engine.listFiles({ state: 'SKIPPED', limit: 1000 });
        const byCode: Record<string, number> = {};
        for (const r of rows) byCode[r.reasonCode ?? ''] = (byCode[r.reasonCode ?? ''] ?? 0) + 1;
        expect(byCode).toEqual(Object.fromEntries(Object.entries(plan.skip).map(([c, s]) => [c, s.count])));

        const me = await seeder.me();
        expect(me.ok).toBe(true);
        if (!me.ok) return;
        expect(me.value.usage.bytes_used).toBe(bill.bytesAfter);
        expect(me.value.usage.daily_rent_paise).toBe(bill.dailyRentAfterPaise);
        expect(me.value.usage.monthly_estimate_paise).toBe(bill.monthlyAfterPaise);
        expect(bill.dailyRentAfterPaise).toBeGreaterThan(0);

        // Watched now: a second dry run finds everything live and nothing to send.
        const again = await dryRun({ client: reader.client, path: dir, db: h.db });
        expect(again.ok && again.value.watched).toBe(true);
        if (!again.ok) return;
        expect(again.value.plan.upload.count).toBe(0);
        expect(again.value.plan.alreadyLive.count).toBe(plan.upload.count + plan.alreadyLive.count);
        expect(again.value.bill.bytesAfter).toBe(me.value.usage.bytes_used);

        // The floor day it named, on the service clock: the wallet holds the floor the day before, not on it.
        const forecast = again.value.bill.after;
        expect(forecast.coversFloorNow).toBe(true);
        expect(forecast.underFloorOn).not.toBeNull();
        const clock = await server.admin<{ now: string }>('GET', '/clock');
        const target = parseIst(`${forecast.underFloorOn} 00:00`)!;
        const now = Date.parse(clock.json.now);
        await server.admin('POST', '/clock/advance', { seconds: Math.ceil((target - now) / 1000) - 60 });
        const dayBefore = await seeder.me();
        expect(dayBefore.ok && dayBefore.value.wallet.balance_paise).toBeGreaterThanOrEqual(5_000);
        await server.admin('POST', '/clock/advance', { seconds: 120 });
        const onTheDay = await seeder.me();
        expect(onTheDay.ok && onTheDay.value.wallet.balance_paise).toBeLessThan(5_000);
        expect(formatIstDate(target)).toBe(forecast.underFloorOn);
      } finally {
        await h.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await server.stop();
    }
  }, 120_000);

  it('a missing folder is an error value, not a throw', async () => {
    const server = await startServer();
    try {
      const r = await dryRun({ client: testClient(server.baseUrl, server.demoKey), path: '/nonexistent/x' });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.code).toBe('FOLDER-MISSING');
    } finally {
      await server.stop();
    }
  });
});
