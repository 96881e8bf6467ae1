import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAppService } from '../../src-main/core/app/app-service';
import { bandwidthOf, inForceText } from '../../src-main/core/app/bandwidth-settings';
import { createSettingsStore } from '../../src-main/core/app/settings-store';
import { APP_MIGRATIONS } from '../../src-main/core/state/migrations';
import { openDatabase } from '../../src-main/shared-node/sqlite';
import { DEFAULT_SETTINGS } from '../../src-shared/contract';
import { DAYS, limitAt } from '../../src-shared/domain/bwlimit';
import { memorySecrets } from '../support/secrets';

// The machine in the issue ran on UTC while its person lived on IST.
// Put back after the file: a worker runs other files after this one (isolate: false), and a browser it
// launches takes its zone from this process.
const zoneBefore = process.env.TZ;
process.env.TZ = 'UTC';
afterAll(() => {
  if (zoneBefore === undefined) delete process.env.TZ;
  else process.env.TZ = zoneBefore;
});

const roots: string[] = [];
const tempRoot = () => {
  const r = mkdtempSync(join(tmpdir(), 'bw-week-'));
  roots.push(r);
  return r;
};
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

/** This hour (local) as a schedule entry's start, and the hour after it. */
function hourNow(offsetHours = 0) {
  const d = new Date(Date.now() + offsetHours * 3_600_000);
  return `${DAYS[d.getDay()]}-${String(d.getHours()).padStart(2, '0')}:00`;
}

// Issue 23, "Settings that do what they say": the upload limit and the weekly schedule are two settings.
describe('the upload limit and the weekly schedule kept apart', () => {
  it('normal hours follow the upload limit, limited hours their own; "off" turns the normal hours unlimited', async () => {
    const app = await createAppService({
      dataDir: tempRoot(),
      secrets: memorySecrets(),
      env: {},
      log: () => {},
    });
    try {
      expect((await app.call('session.useSandbox', {})).ok).toBe(true);
      const text = async () => {
        const o = await app.call('sync.overview', {});
        if (!o.ok) throw new Error(o.error.message);
        return o.value.bandwidth?.text ?? '';
      };
      expect((await app.call('settings.update', { bwlimit: '2M' })).ok).toBe(true);
      // This hour is normal; two hours on the schedule pauses: the schedule decides, at the upload limit.
      const week = `${hourNow()},normal ${hourNow(2)},pause ${hourNow(3)},normal`;
      const saved = await app.call('settings.update', { bwSchedule: week });
      expect(saved.ok, JSON.stringify(saved)).toBe(true);
      expect(await text()).toMatch(/^Limited to 2 MiB\/s until /);
      // The case: the limit set to off, and the normal hours are unlimited at once.
      expect((await app.call('settings.update', { bwlimit: 'off' })).ok).toBe(true);
      expect(await text()).toMatch(/^Unlimited until /);
      // The same hour marked limited takes the limited hours' limit, and follows a change of it.
      await app.call('settings.update', { bwSchedule: `${hourNow()},limited ${hourNow(1)},normal` });
      expect(await text()).toMatch(/^Limited to 512 KiB\/s until /);
      await app.call('settings.update', { bwScheduleLimit: '1M' });
      expect(await text()).toMatch(/^Limited to 1 MiB\/s until /);
      // Clear schedule: the one limit again, no "until".
      await app.call('settings.update', { bwSchedule: '' });
      expect(await text()).toBe('Unlimited');
    } finally {
      await app.close();
    }
  });

  it('a schedule with rates in it is refused in words, beside its field', async () => {
    const app = await createAppService({
      dataDir: tempRoot(),
      secrets: memorySecrets(),
      env: {},
      log: () => {},
    });
    try {
      const r = await app.call('settings.update', { bwSchedule: 'Sun-00:00,2M' });
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.error.field).toBe('bwSchedule');
      expect(r.error.message).toMatch(/normal, limited or pause/);
      const days = await app.call('settings.update', { runwayAlertDays: 0 });
      expect(!days.ok && days.error.field).toBe('runwayAlertDays');
      expect(!days.ok && days.error.message).toBe('runwayAlertDays: Write the days from 1 to 90.');
    } finally {
      await app.close();
    }
  });

  it('the grid can be read on IST: Wed 07:00 IST pauses at 07:00 IST on a UTC machine', () => {
    const s = {
      ...DEFAULT_SETTINGS,
      bwSchedule: 'Wed-07:00,pause Wed-08:00,normal',
      bwScheduleZone: 'ist' as const,
    };
    const b = bandwidthOf(s);
    const wed0700ist = Date.UTC(2026, 10, 25, 1, 30); // 2026-11-25 is a Wednesday
    expect(limitAt(b.schedule, wed0700ist, b.zone)).toEqual({
      limit: { kind: 'pause' },
      until: Date.UTC(2026, 10, 25, 2, 30),
    });
    expect(limitAt(b.schedule, wed0700ist - 60_000, b.zone).limit).toEqual({ kind: 'off' });
    // The next change in both clocks, as they differ here.
    expect(
      inForceText({ ...limitAt(b.schedule, wed0700ist, 'ist'), source: 'schedule', zone: 'ist' }, wed0700ist),
    ).toBe('Paused by the schedule until 08:00 IST (02:30 on this computer)');
    // Read on the machine's clock, the same text means 07:00 UTC.
    const local = bandwidthOf({ ...s, bwScheduleZone: 'local' });
    expect(limitAt(local.schedule, wed0700ist, local.zone).limit).toEqual({ kind: 'off' });
    expect(limitAt(local.schedule, Date.UTC(2026, 10, 25, 7, 0), local.zone).limit).toEqual({
      kind: 'pause',
    });
  });

  it('migration 330 rewrites a schedule saved with rates as kinds of hour, keeping what it meant', () => {
    const file = join(tempRoot(), 'app.sqlite');
    const before = openDatabase(
      file,
      APP_MIGRATIONS.filter((m) => m.id < 330),
    );
    before.prepare("INSERT INTO app_settings (key, value) VALUES ('settings', ?)").run(
      JSON.stringify({
        bwlimit: '2M',
        bwSchedule: 'Sun-00:00,2M Fri-12:00,256k Fri-14:00,pause Fri-15:00,2M',
      }),
    );
    before.close();
    const db = openDatabase(file, APP_MIGRATIONS);
    const s = createSettingsStore(db).get();
    db.close();
    expect(s.bwlimit).toBe('2M');
    expect(s.bwSchedule).toBe('Sun-00:00,normal Fri-12:00,limited Fri-14:00,pause Fri-15:00,normal');
    expect(s.bwScheduleLimit).toBe('256k');
    expect(s.bwScheduleZone).toBe('local');
  });
});
