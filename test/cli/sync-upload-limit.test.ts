import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadLimitLine } from '../../src-main/cli/commands/sync-bwlimit';
import { createSettingsStore } from '../../src-main/core/app/settings-store';
import { APP_MIGRATIONS } from '../../src-main/core/state/migrations';
import { type RunningServer, startReferenceServer } from '../../src-main/reference-server/server';
import { openDatabase } from '../../src-main/shared-node/sqlite';
import { runCli } from './run-cli';

/**
 * `sync` says at start which upload limit is in force and where it comes from: `--bwlimit` (a rate
 * or a timetable), or none, naming a limit saved in the app that this run does not use. People's
 * output only: the `--json` lines are as they were. The real CLI and reference server.
 */
describe('sync: the upload limit in force, said at start', () => {
  const work = mkdtempSync(join(tmpdir(), 'cli-sync-limit-'));
  const dataDir = join(work, 'data');
  const dir = join(work, 'folder');
  let server: RunningServer;
  let env: Record<string, string>;
  const cli = (...args: string[]) =>
    runCli([...args, '--base-url', server.baseUrl, '--data-dir', dataDir], env);
  const limitLines = (text: string) => text.split('\n').filter((l) => l.startsWith('Upload limit'));
  const save = (patch: { bwlimit?: string; bwSchedule?: string; bwScheduleLimit?: string }) => {
    const db = openDatabase(join(dataDir, 'app.sqlite'), APP_MIGRATIONS);
    try {
      createSettingsStore(db).update(patch);
    } finally {
      db.close();
    }
  };

  beforeAll(async () => {
    server = await startReferenceServer({ dataDir: join(work, 'server') });
    env = { ASSETS_API_KEY: String(server.demo?.api_key) };
    mkdirSync(dir);
    for (let i = 1; i <= 2; i++) writeFileSync(join(dir, `f-${i}.txt`), `file ${i}`);
  });
  afterAll(async () => {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('names the --bwlimit rate in force', async () => {
    const r = await cli('sync', dir, '--once', '--bwlimit', '2M');
    expect(r.code, r.stderr).toBe(0);
    expect(limitLines(r.stderr)).toEqual(['Upload limit: 2 MiB/s (--bwlimit 2M).']);
  });

  it('names a --bwlimit timetable as the source', async () => {
    const r = await cli('sync', dir, '--once', '--bwlimit', '00:00,512k');
    expect(r.code, r.stderr).toBe(0);
    expect(limitLines(r.stderr)).toEqual(['Upload limit: 512 KiB/s (--bwlimit timetable).']);
  });

  it('says none without --bwlimit, and names a limit saved in the app that this run does not use', async () => {
    const none = await cli('sync', dir, '--once');
    expect(none.code, none.stderr).toBe(0);
    expect(limitLines(none.stderr)).toEqual(['Upload limit: none.']);

    save({ bwlimit: '512k' });
    const saved = await cli('sync', dir, '--once');
    expect(saved.code, saved.stderr).toBe(0);
    expect(limitLines(saved.stderr)).toEqual([
      "Upload limit: none; the app's saved limit 512k is for the app only, --bwlimit sets one for this run.",
    ]);

    save({ bwlimit: 'off', bwSchedule: 'Mon-08:00,limited Mon-19:00,normal', bwScheduleLimit: '512k' });
    const timetable = await cli('sync', dir, '--once', '--bwlimit', 'off');
    expect(limitLines(timetable.stderr)).toEqual(['Upload limit: none (--bwlimit off).']);
    const kept = await cli('sync', dir, '--once');
    expect(limitLines(kept.stderr)).toEqual([
      `Upload limit: none; the app's saved timetable "Mon-08:00,512k Mon-19:00,off" is for the app only, --bwlimit sets one for this run.`,
    ]);
    save({ bwlimit: 'off', bwSchedule: '' });
  });

  it('leaves the --json lines as they were: no start record, nothing on standard error', async () => {
    const r = await cli('sync', dir, '--once', '--bwlimit', '2M', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim().split('\n')).toHaveLength(r.lines.length);
    // The events sync has always written, and the summary last: no new record joins them.
    // `office` is the office's shape (docs/office.md), said when a desk joins one; `activity` says what
    // the run found on the service (files adopted, a live file found gone and sent again: issue 18).
    const known = [
      'activity',
      'file',
      'progress',
      'paused',
      'resumed',
      'stopped',
      'error',
      'folder-in-sync',
      'office',
      'summary',
    ];
    for (const l of r.lines) expect(known).toContain(l.event);
    expect(r.lines.at(-1)?.event).toBe('summary');
    expect(r.stdout).not.toMatch(/upload limit/i);
  });
});

describe('the upload limit line', () => {
  const saved = { limit: { kind: 'off' as const }, schedule: [] };
  // Monday 23 Nov 2026, 10:00 local time; a window that ends at 19:00 the same day, or on Tuesday.
  const now = new Date(2026, 10, 23, 10, 0).getTime();
  const today = new Date(2026, 10, 23, 19, 0).getTime();
  const tuesday = new Date(2026, 10, 24, 8, 0).getTime();
  it('says until when a timetable keeps it, and a paused window as paused', () => {
    expect(
      uploadLimitLine(
        { limit: { kind: 'rate', bytesPerSecond: 512 * 1024 }, until: today, source: 'schedule' },
        '08:00,512k 19:00,off',
        saved,
        now,
      ),
    ).toBe('Upload limit: 512 KiB/s until 19:00 (--bwlimit timetable).');
    expect(
      uploadLimitLine({ limit: { kind: 'pause' }, until: tuesday, source: 'schedule' }, 'x', saved, now),
    ).toBe('Upload limit: paused (nothing is sent) until Tue 08:00 (--bwlimit timetable).');
    expect(
      uploadLimitLine(
        { limit: { kind: 'rate', bytesPerSecond: 1.5 * 1024 ** 2 }, until: null, source: 'limit' },
        '1.5M',
        saved,
        now,
      ),
    ).toBe('Upload limit: 1.5 MiB/s (--bwlimit 1.5M).');
  });
});
