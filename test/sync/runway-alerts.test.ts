import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunwayAlerts } from '../../src-main/core/app/runway-alerts';
import { APP_MIGRATIONS } from '../../src-main/core/state/migrations';
import { openDatabase } from '../../src-main/shared-node/sqlite';
import { formatIstDate } from '../../src-shared/domain/ist-time';
import { forecastWallet } from '../../src-shared/domain/rent-forecast';
import { formatServiceDate } from '../../src-shared/domain/time-format';
import { startServer, tempDir, testClient } from './helpers';

// 250 paise a day for one file of 161,100 bytes: the 10,000 paise demo wallet reaches the 5,000 floor in 20 days.
const PRICE = 50_000_000;

describe('runway alerts on the sandbox clock', () => {
  it('notify at 7 days, at 1 day and when arrears start, once each, across a restart; a digest a day', async () => {
    const server = await startServer({ pricePerGbMonthPaise: PRICE });
    const appDir = mkdtempSync(join(tmpdir(), 'alerts-app-'));
    const db = openDatabase(join(appDir, 'app.sqlite'), APP_MIGRATIONS);
    try {
      const client = testClient(server.baseUrl, server.demoKey);
      const path = join(tempDir('alerts-'), 'big.pdf');
      const bytes = randomBytes(161_100);
      writeFileSync(path, bytes);
      const md5 = createHash('md5').update(bytes).digest('hex');
      expect((await client.uploadFile({ path, size: bytes.length, name: 'big.pdf', md5 })).ok).toBe(true);

      const digests: string[] = [];
      const make = () =>
        createRunwayAlerts({ db, activity: (kind, message) => kind === 'digest' && digests.push(message) });
      let alerts = make();
      const fired: { day: number; threshold: string; body: string; daysToFloor: number | null }[] = [];
      for (let day = 0; day <= 45; day++) {
        if (day > 0) await server.admin('POST', '/clock/advance', { seconds: 86_400 });
        const now = Date.parse((await server.admin<{ now: string }>('GET', '/clock')).json.now);
        const me = await client.me();
        expect(me.ok).toBe(true);
        if (!me.ok) return;
        const f = forecastWallet(
          me.value.wallet.balance_paise,
          me.value.usage.daily_rent_paise,
          me.value.wallet.min_balance_to_upload_paise,
          now,
        );
        // Asked twice (two refreshes of /me in one day): the second never repeats the first.
        for (let k = 0; k < 2; k++)
          for (const w of alerts.onAccount(me.value, now, 7))
            fired.push({ day, threshold: w.threshold, body: w.body, daysToFloor: f.daysToUnderFloor });
        // A restart in the middle keeps what fired.
        if (day === 15) alerts = make();
      }
      expect(fired.map((f) => f.threshold)).toEqual(['floor-soon', 'floor-tomorrow', 'arrears']);
      expect(fired[0]!.daysToFloor).toBe(7);
      expect(fired[1]!.daysToFloor).toBe(1);
      expect(fired[2]!.body).toMatch(
        /closes and its files are removed on \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} IST/,
      );
      // One digest line per day passed, with the rent and the runway.
      expect(digests).toHaveLength(45);
      expect(digests[0]).toMatch(/rent ₹2\.50 a day; runway \d+ day/);
    } finally {
      db.close();
      rmSync(appDir, { recursive: true, force: true });
      await server.stop();
    }
  }, 120_000);

  it('the digest counts a day on the service clock, after the clock moved (issue 23)', () => {
    const f = digestFixture();
    try {
      f.alerts.onAccount(f.me, f.serviceNow, 7);
      // The sandbox clock moves a day: the offset grows from now on, and the next /me is on the next day.
      f.offsets.push({ from: Date.now(), offsetMs: 11 * 86_400_000 });
      f.alerts.onAccount(f.me, f.serviceNow + 86_400_000, 7);
      expect(f.digests).toHaveLength(1);
      expect(f.digests[0]).toMatch(
        /^Day summary of \d{1,2} [A-Z][a-z]{2} \d{4} on the service's clock: 36 files uploaded \(155 MiB\); rent ₹2\.50 a day; runway 40 days\.$/,
      );
    } finally {
      f.close();
    }
  });

  it('the digest of a day several days back counts that day, not the day before today (issue 23)', () => {
    const f = digestFixture();
    try {
      f.alerts.onAccount(f.me, f.serviceNow, 7);
      // Five days pass before the next /me (the sandbox's clock moved, or the machine slept): the
      // digest is of the last day digested, and counted over that day. It counted the day before
      // today and said "0 files uploaded" under the day the 36 went live (seen in the screenshot tour).
      f.offsets.push({ from: Date.now(), offsetMs: 15 * 86_400_000 });
      f.alerts.onAccount(f.me, f.serviceNow + 5 * 86_400_000, 7);
      expect(f.digests).toHaveLength(1);
      expect(f.digests[0]).toBe(
        `Day summary of ${formatServiceDate(formatIstDate(f.serviceNow))} on the service's clock: 36 files uploaded (155 MiB); rent ₹2.50 a day; runway 40 days.`,
      );
    } finally {
      f.close();
    }
  });
});

/**
 * An app database with 36 live files (155 MiB) that went live now, the sandbox clock 10 days ahead of
 * the machine (`offsets` may grow), and the runway alerts over it collecting their digests.
 */
function digestFixture() {
  const appDir = mkdtempSync(join(tmpdir(), 'digest-app-'));
  const db = openDatabase(join(appDir, 'app.sqlite'), APP_MIGRATIONS);
  const machineNow = Date.now();
  const offsets = [{ from: machineNow - 3_600_000, offsetMs: 10 * 86_400_000 }];
  db.prepare(
    "INSERT INTO sync_folders (id, path, bucket, mode, created_at) VALUES (1, '/x', 'b', 'upload-only', 0)",
  ).run();
  const add = db.prepare(
    "INSERT INTO sync_files (folder_id, name, state, size, updated_at) VALUES (1, ?, 'LIVE', ?, ?)",
  );
  for (let i = 0; i < 36; i++)
    add.run(`f${i}.pdf`, i === 0 ? 155 * 2 ** 20 - 35 * 1000 : 1000, machineNow - 1000);
  const digests: string[] = [];
  const alerts = createRunwayAlerts({
    db,
    activity: (kind, message) => kind === 'digest' && digests.push(message),
    offsets: () => offsets,
  });
  const me = {
    client: { status: 'ACTIVE' },
    wallet: { balance_paise: 10_000, min_balance_to_upload_paise: 5000 },
    usage: { daily_rent_paise: 250, bytes_used: 0 },
    arrears: { paise: 0, since: null, deadline: null },
  } as unknown as Parameters<typeof alerts.onAccount>[0];
  return {
    alerts,
    me,
    digests,
    offsets,
    serviceNow: machineNow + offsets[0]!.offsetMs,
    close() {
      db.close();
      rmSync(appDir, { recursive: true, force: true });
    },
  };
}
