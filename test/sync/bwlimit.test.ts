import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bandwidthOption } from '../../src-main/cli/commands/sync-bwlimit';
import { overviewBandwidth } from '../../src-main/core/app/bandwidth-settings';
import { multipartBody } from '../../src-main/core/service/multipart-body';
import { createRateLimiter } from '../../src-main/core/sync/engine/bandwidth';
import { createEngineState } from '../../src-main/core/sync/engine/engine-state';
import { createBandwidthSchedule, type InForce } from '../../src-main/core/sync/engine/schedule';
import { trayView } from '../../src-main/electron/tray-state';
import type { SyncOverview } from '../../src-shared/contract';
import {
  formatSchedule,
  type GridCell,
  gridToWeek,
  limitAt,
  parseBwlimit,
  parseLimit,
  parseSchedule,
  resolveWeek,
} from '../../src-shared/domain/bwlimit';
import { estimateTimeLeft, timeLeftNow } from '../../src-shared/domain/time-left';
import { fakeClock } from './fake-clock';

// The machine's zone for this file: local time is IST, so a schedule's change is said once.
// Put back after the file: a worker runs other files after this one (isolate: false), and a browser it
// launches takes its zone from this process.
const zoneBefore = process.env.TZ;
process.env.TZ = 'Asia/Kolkata';
afterAll(() => {
  if (zoneBefore === undefined) delete process.env.TZ;
  else process.env.TZ = zoneBefore;
});

const KiB = 1024;
const MiB = 1024 * 1024;

describe('--bwlimit text (rclone syntax)', () => {
  it('reads rates, off and pause', () => {
    expect(parseLimit('512k')).toEqual({ ok: true, value: { kind: 'rate', bytesPerSecond: 512 * KiB } });
    expect(parseLimit('2M')).toEqual({ ok: true, value: { kind: 'rate', bytesPerSecond: 2 * MiB } });
    expect(parseLimit('1.5M')).toEqual({ ok: true, value: { kind: 'rate', bytesPerSecond: 1.5 * MiB } });
    expect(parseLimit('100')).toEqual({ ok: true, value: { kind: 'rate', bytesPerSecond: 100 * KiB } });
    expect(parseLimit('off')).toEqual({ ok: true, value: { kind: 'off' } });
    expect(parseLimit('pause')).toEqual({ ok: true, value: { kind: 'pause' } });
  });
  it('refuses bad input with a code and a message that says what to write', () => {
    const cases: [string, string][] = [
      ['fast', 'BWLIMIT-BAD-RATE'],
      ['2X', 'BWLIMIT-BAD-RATE'],
      ['-1M', 'BWLIMIT-BAD-RATE'],
      ['0', 'BWLIMIT-TOO-LOW'],
      ['25:00,1M', 'BWLIMIT-BAD-TIME'],
      ['Xyz-08:00,1M', 'BWLIMIT-BAD-DAY'],
      ['08:00', 'BWLIMIT-BAD-ENTRY'],
      ['08:00,512k 19:00', 'BWLIMIT-BAD-ENTRY'],
      ['08:00,lots', 'BWLIMIT-BAD-RATE'],
    ];
    for (const [text, code] of cases) {
      const r = bandwidthOption(text);
      expect(r.ok, text).toBe(false);
      if (r.ok) continue;
      expect(r.error.code, text).toBe(code);
      expect(r.error.message).toMatch(/^--bwlimit: .+/);
    }
  });
  it('reads a timetable with and without days, and writes it back', () => {
    const r = parseBwlimit('08:00,512k 19:00,off Sat-10:30,pause');
    expect(r.ok).toBe(true);
    if (!r.ok || !('schedule' in r.value)) throw new Error('no schedule');
    expect(r.value.schedule).toEqual([
      { day: null, minute: 480, limit: { kind: 'rate', bytesPerSecond: 512 * KiB } },
      { day: null, minute: 1140, limit: { kind: 'off' } },
      { day: 6, minute: 630, limit: { kind: 'pause' } },
    ]);
    expect(formatSchedule(r.value.schedule)).toBe('08:00,512k 19:00,off Sat-10:30,pause');
  });
});

describe('what the schedule says at a time (local clock)', () => {
  const s = parseSchedule('08:00,512k 19:00,off');
  if (!s.ok) throw new Error('schedule');
  it('names the limit in force and when it ends', () => {
    const mon10 = new Date(2026, 10, 23, 10, 15).getTime(); // a Monday
    expect(limitAt(s.value, mon10)).toEqual({
      limit: { kind: 'rate', bytesPerSecond: 512 * KiB },
      until: new Date(2026, 10, 23, 19, 0).getTime(),
    });
    // Before 08:00 the evening's entry (the day before) is still in force, until 08:00.
    const mon7 = new Date(2026, 10, 23, 7, 59).getTime();
    expect(limitAt(s.value, mon7)).toEqual({
      limit: { kind: 'off' },
      until: new Date(2026, 10, 23, 8, 0).getTime(),
    });
  });
  it('a day entry applies on that day only', () => {
    const d = parseSchedule('Mon-08:00,1M Mon-18:00,off');
    if (!d.ok) throw new Error('schedule');
    const tue9 = new Date(2026, 10, 24, 9, 0).getTime();
    expect(limitAt(d.value, tue9)).toEqual({
      limit: { kind: 'off' },
      until: new Date(2026, 10, 30, 8, 0).getTime(),
    });
  });
  it('the Settings grid becomes the same timetable', () => {
    const grid: GridCell[][] = Array.from({ length: 7 }, () => Array<GridCell>(24).fill('normal'));
    for (let d = 1; d <= 5; d++) for (let h = 9; h < 17; h++) grid[d]![h] = 'limited';
    grid[0]![3] = 'pause';
    const entries = resolveWeek(
      gridToWeek(grid),
      { kind: 'off' },
      { kind: 'rate', bytesPerSecond: 256 * KiB },
    );
    const at = (d: number, h: number) => limitAt(entries, new Date(2026, 10, 22 + d, h, 30).getTime()).limit;
    expect(at(1, 10)).toEqual({ kind: 'rate', bytesPerSecond: 256 * KiB }); // Monday 10:30
    expect(at(1, 17)).toEqual({ kind: 'off' });
    expect(at(6, 10)).toEqual({ kind: 'off' }); // Saturday
    expect(at(0, 3)).toEqual({ kind: 'pause' }); // Sunday 03:30
    expect(gridToWeek(Array.from({ length: 7 }, () => Array<GridCell>(24).fill('normal')))).toEqual([]);
  });
});

describe('the rate limiter on a fake clock', () => {
  it('paces bytes at the rate after a quarter second of burst', async () => {
    const clock = fakeClock(1_000);
    const lim = createRateLimiter(clock, 100 * KiB);
    let granted = 0;
    const run = (async () => {
      for (let i = 0; i < 40; i++) {
        await lim.take(10 * KiB);
        granted += 10 * KiB;
      }
    })();
    await clock.advance(0);
    // The burst: a quarter second's worth (25 KiB) at once, plus the slice that crosses it.
    expect(granted).toBeLessThanOrEqual(30 * KiB);
    await clock.advance(1_000);
    expect(granted).toBeGreaterThanOrEqual(120 * KiB);
    expect(granted).toBeLessThanOrEqual(130 * KiB);
    await clock.advance(3_000);
    await run;
    expect(granted).toBe(400 * KiB);
    // 400 KiB at 100 KiB/s: four seconds, less the burst.
    expect(clock.now() - 1_000).toBe(4_000);
  });
  it('a wall clock set back 10 minutes mid-upload holds nothing (issue 33)', async () => {
    const clock = fakeClock(1_700_000_000_000);
    const lim = createRateLimiter(clock, 100 * KiB);
    let granted = 0;
    const run = (async () => {
      for (let i = 0; i < 20; i++) {
        await lim.take(10 * KiB);
        granted += 10 * KiB;
      }
    })();
    await clock.advance(500);
    clock.stepWall(-10 * 60_000);
    await clock.advance(2_000);
    await run;
    expect(granted).toBe(200 * KiB);
  });

  it('unlimited waits for nothing; a new rate applies at once', async () => {
    const clock = fakeClock();
    const lim = createRateLimiter(clock, null);
    await lim.take(50 * MiB);
    lim.setRate(1 * KiB);
    const slow = lim.take(10 * KiB);
    let done = false;
    void slow.then(() => (done = true));
    await clock.advance(9_000);
    expect(done).toBe(false);
    await clock.advance(1_000);
    expect(done).toBe(true);
  });
  // Every upload of the engine passes its limiter; without a rate, 64 KiB slices made a 200 MB
  // upload 3,200 trips through the body, the stream and the progress event (docs/benchmarks.md).
  it('unlimited, a body hands on each 1 MiB read whole; limited, in slices', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bw-'));
    try {
      const path = join(dir, 'f');
      writeFileSync(path, Buffer.alloc(3 * MiB, 7));
      const chunks = async (rate: number | null) => {
        const body = multipartBody([['name', 'f']], { path, size: 3 * MiB, filename: 'f' });
        const progress: number[] = [];
        for await (const _ of body.stream((n) => progress.push(n), createRateLimiter(fakeClock(), rate)));
        return progress;
      };
      expect(await chunks(null)).toEqual([1 * MiB, 2 * MiB, 3 * MiB]);
      // A rate high enough never to wait on the fake clock: slices of at most 64 KiB still interleave.
      expect((await chunks(1024 * MiB)).length).toBe((3 * MiB) / (64 * KiB));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('parallel uploads share one limit (two bodies read from disk)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bw-'));
    try {
      const clock = fakeClock();
      const lim = createRateLimiter(clock, 256 * KiB);
      const bodies = [0, 1].map((i) => {
        const path = join(dir, `f${i}`);
        writeFileSync(path, Buffer.alloc(512 * KiB, i));
        return multipartBody([['name', `f${i}`]], { path, size: 512 * KiB, filename: `f${i}` });
      });
      const sent = [0, 0];
      let running = 2;
      const drains = bodies.map(async (b, i) => {
        for await (const _ of b.stream((n) => (sent[i] = n), lim));
        running--;
      });
      // Each tick: both bodies have read from disk and wait on the limiter (or are done), then time moves.
      const settled = async () => {
        while (clock.pending() < running) await new Promise((r) => setImmediate(r));
      };
      for (let s = 1; s <= 4; s++) {
        for (let tick = 0; tick < 20; tick++) {
          await settled();
          await clock.advance(50);
        }
        await settled();
        const total = sent[0]! + sent[1]!;
        // Together never more than the rate allows (plus the burst), each getting its share.
        expect(total).toBeLessThanOrEqual(s * 256 * KiB + 64 * KiB + 64 * KiB);
        expect(total).toBeGreaterThanOrEqual(s * 256 * KiB - 64 * KiB);
        expect(Math.abs(sent[0]! - sent[1]!)).toBeLessThanOrEqual(64 * KiB);
      }
      await Promise.all(drains);
      expect(sent).toEqual([512 * KiB, 512 * KiB]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the schedule follows the clock', () => {
  afterAll(() => undefined);
  it('pauses and resumes at the window edges, and says what is in force until when', async () => {
    const start = new Date(2026, 10, 23, 21, 58).getTime(); // Monday 21:58
    const clock = fakeClock(start);
    const state = createEngineState();
    const lim = createRateLimiter(clock);
    const seen: InForce[] = [];
    let wakes = 0;
    const s = parseSchedule('08:00,512k 22:00,pause 23:00,off');
    if (!s.ok) throw new Error('schedule');
    const sch = createBandwidthSchedule(state, {
      limiter: lim,
      clock,
      wake: () => wakes++,
      onChange: (f) => seen.push(f),
    });
    sch.set({ limit: { kind: 'off' }, schedule: s.value });
    sch.start();
    expect(sch.inForce()).toEqual({
      limit: { kind: 'rate', bytesPerSecond: 512 * KiB },
      until: new Date(2026, 10, 23, 22, 0).getTime(),
      source: 'schedule',
      zone: 'local',
    });
    expect(lim.rate()).toBe(512 * KiB);
    expect(state.schedulePaused).toBe(false);
    const tray = () =>
      trayView({
        state: 'syncing',
        held: null,
        folders: [],
        budget: { perMinute: 115, usedLastMinute: 0 },
        concurrency: 4,
        offline: null,
        nextCheckAt: null,
        bandwidth: overviewBandwidth(sch.inForce(), clock.now()),
      } satisfies SyncOverview).limit;
    // On this file's clock (IST, set above) one time is said, labelled; off IST, both (bandwidth-schedule-zone.test.ts).
    expect(tray()).toBe('Limited to 512 KiB/s until 22:00 IST');
    await clock.advance(2 * 60_000 + 10); // 22:00: paused
    expect(state.schedulePaused).toBe(true);
    expect(sch.inForce().limit).toEqual({ kind: 'pause' });
    expect(sch.inForce().until).toBe(new Date(2026, 10, 23, 23, 0).getTime());
    expect(tray()).toBe('Paused by the schedule until 23:00 IST');
    expect(wakes).toBe(0);
    await clock.advance(60 * 60_000); // 23:00: sending again, unlimited until 08:00
    expect(state.schedulePaused).toBe(false);
    expect(lim.rate()).toBeNull();
    expect(wakes).toBe(1);
    expect(sch.inForce().until).toBe(new Date(2026, 10, 24, 8, 0).getTime());
    expect(seen.at(-1)?.limit).toEqual({ kind: 'off' });
    expect(tray()).toBeNull(); // unlimited: the tray has nothing to say
    sch.stop();
    expect(clock.pending()).toBe(0);
  });
});

const START = { now: 100_000, startedAt: 100_000, filesDone: 0 };

describe('time left at the limit', () => {
  // The budget is a sliding window: an idle one lets a minute's allowance go at once, then 115 a minute.
  it('10,000 small files at 115 a minute take 86 minutes, bound by requests', () => {
    const r = estimateTimeLeft({
      ...START,
      bytesLeft: 10_000 * 2_000,
      filesLeft: 10_000,
      bytesPerSecond: 50 * MiB,
      limitBytesPerSecond: null,
      requestsPerMinute: 115,
    });
    expect(r.bound).toBe('requests');
    expect(Math.round(r.seconds! / 60)).toBe(86);
  });
  it('a large file at the bandwidth limit is bound by bytes, at the limited rate', () => {
    const r = estimateTimeLeft({
      ...START,
      bytesLeft: 50 * MiB,
      filesLeft: 1,
      bytesPerSecond: 40 * MiB,
      limitBytesPerSecond: 2 * MiB,
      requestsPerMinute: 115,
    });
    expect(r).toEqual({ seconds: 25, bound: 'bytes' });
  });
  // Issue 31: "3 s left (bound by bandwidth)" for files that were only waiting to retry.
  it('a full window: the next request goes when its oldest grant is a minute old', () => {
    const recent = Array.from({ length: 115 }, (_, i) => START.now - 30_000 + i);
    const r = estimateTimeLeft({
      ...START,
      bytesLeft: 2_000,
      filesLeft: 1,
      bytesPerSecond: 50 * MiB,
      limitBytesPerSecond: null,
      requestsPerMinute: 115,
      recentRequests: recent,
    });
    expect(r).toEqual({ seconds: 30, bound: 'requests' });
  });
  it('files only waiting for their retry count by their retry time, never as bandwidth', () => {
    const r = estimateTimeLeft({
      ...START,
      bytesLeft: 0,
      filesLeft: 0,
      bytesPerSecond: 0,
      limitBytesPerSecond: null,
      requestsPerMinute: 115,
      retryAts: [START.now + 600_000],
    });
    expect(r).toEqual({ seconds: 600, bound: 'retry' });
  });
  it('a run of small files is bound by the pace of files so far once three are done', () => {
    // 17 files, 5 done in 5 s: 12 left at a file a second, not the 6 s the budget alone would say.
    const r = estimateTimeLeft({
      now: 105_000,
      startedAt: 100_000,
      filesDone: 5,
      bytesLeft: 12 * 3_000,
      filesLeft: 12,
      bytesPerSecond: 100 * MiB,
      limitBytesPerSecond: null,
      requestsPerMinute: 115,
    });
    expect(r).toEqual({ seconds: 12, bound: 'pace' });
  });
  it('a schedule pause in force adds the time until it ends', () => {
    const r = estimateTimeLeft({
      ...START,
      bytesLeft: 10 * MiB,
      filesLeft: 1,
      bytesPerSecond: MiB,
      limitBytesPerSecond: null,
      requestsPerMinute: 0,
      pausedUntil: START.now + 60_000,
    });
    expect(r).toEqual({ seconds: 70, bound: 'schedule' });
  });
});

// Issue 31: "from ... the bandwidth limit and the schedule's windows". The same work, with the schedule's
// windows ahead (at START.now + seconds): what cannot finish before a pause waits until it ends; a limited
// window sends at its own rate; a retry that falls in a pause goes when the pause ends.
describe("time left across the schedule's windows", () => {
  const at = (s: number) => START.now + s * 1000;
  const pause = { kind: 'pause' } as const;
  const off = { kind: 'off' } as const;
  const rate = (bytesPerSecond: number) => ({ kind: 'rate', bytesPerSecond }) as const;
  // Ten files of 1 MiB not started yet, at a measured 1 MiB/s: 10 s with nothing ahead. (A pause starts no
  // upload; those on the wire are the next describe's.)
  const tenMiB = {
    ...START,
    bytesLeft: 10 * MiB,
    filesLeft: 10,
    filesInFlight: 0,
    bytesPerSecond: MiB,
    limitBytesPerSecond: null,
    requestsPerMinute: 0,
  };
  it.each([
    ['nothing ahead', tenMiB, { seconds: 10, bound: 'bytes' }],
    [
      'a pause after the work is done changes nothing',
      {
        ...tenMiB,
        windowsAhead: [
          { at: at(20), limit: pause },
          { at: at(80), limit: off },
        ],
      },
      { seconds: 10, bound: 'bytes' },
    ],
    [
      'a pause from 4 s to 64 s: 4 s sent, the rest waits for its end',
      {
        ...tenMiB,
        windowsAhead: [
          { at: at(4), limit: pause },
          { at: at(64), limit: off },
        ],
      },
      { seconds: 70, bound: 'schedule' },
    ],
    [
      'a limited window from 2 s: 2 MiB at 1 MiB/s, then 8 MiB at 256 KiB/s',
      { ...tenMiB, windowsAhead: [{ at: at(2), limit: rate(256 * 1024) }] },
      { seconds: 34, bound: 'schedule' },
    ],
    [
      'a limited window above the speed measured is no bound',
      { ...tenMiB, windowsAhead: [{ at: at(2), limit: rate(4 * MiB) }] },
      { seconds: 10, bound: 'bytes' },
    ],
    [
      'in a pause now until 30 s, then limited to 512 KiB/s: nothing measured, sent at the limit',
      {
        ...tenMiB,
        bytesPerSecond: 0,
        pausedUntil: at(30),
        windowsAhead: [{ at: at(30), limit: rate(512 * 1024) }],
      },
      { seconds: 50, bound: 'schedule' },
    ],
    [
      'a timetable that never opens again has no time left to say',
      { ...tenMiB, windowsAhead: [{ at: at(4), limit: pause }] },
      { seconds: null, bound: 'schedule' },
    ],
    [
      "300 files at 120 a minute (120 s: a minute's allowance at once, then at the rate) across a pause of 100 s",
      {
        ...START,
        bytesLeft: 300 * 2_000,
        filesLeft: 300,
        bytesPerSecond: 50 * MiB,
        limitBytesPerSecond: null,
        requestsPerMinute: 120,
        windowsAhead: [
          { at: at(100), limit: pause },
          { at: at(200), limit: off },
        ],
      },
      { seconds: 220, bound: 'schedule' },
    ],
    [
      'a retry due in the pause goes when the pause ends',
      {
        ...START,
        bytesLeft: 0,
        filesLeft: 0,
        bytesPerSecond: 0,
        limitBytesPerSecond: null,
        requestsPerMinute: 115,
        retryAts: [at(30)],
        windowsAhead: [
          { at: at(20), limit: pause },
          { at: at(90), limit: off },
        ],
      },
      { seconds: 90, bound: 'schedule' },
    ],
  ] as const)('%s', (_name, facts, expected) => {
    expect(estimateTimeLeft(facts)).toEqual(expected);
  });
});

// Issue 31: a 429's Retry-After (or the office's turn) holds every request of the budget: the files not yet
// sent wait for it, never "under a second" while nothing may go.
describe("time left under the request budget's hold", () => {
  const three = {
    ...START,
    bytesLeft: 3 * 2_000,
    filesLeft: 3,
    bytesPerSecond: 50 * MiB,
    limitBytesPerSecond: null,
    requestsPerMinute: 115,
  };
  it.each([
    ['no hold', three, { seconds: 0, bound: 'bytes' }],
    [
      'a Retry-After of 30 s',
      { ...three, requestsHeldUntil: START.now + 30_000 },
      { seconds: 30, bound: 'requests' },
    ],
    [
      'a hold that ends in a pause of the schedule waits for both',
      {
        ...three,
        requestsHeldUntil: START.now + 30_000,
        windowsAhead: [
          { at: START.now + 20_000, limit: { kind: 'pause' } },
          { at: START.now + 50_000, limit: { kind: 'off' } },
        ],
      },
      { seconds: 50, bound: 'schedule' },
    ],
    [
      'a hold already over counts nothing',
      { ...three, requestsHeldUntil: START.now - 5_000 },
      { seconds: 0, bound: 'bytes' },
    ],
  ] as const)('%s', (_name, facts, expected) => {
    expect(estimateTimeLeft(facts)).toEqual(expected);
  });
});

describe('time left of uploads on the wire across a pause', () => {
  // engine/schedule.ts: a pause starts no upload, and lets those on the wire finish.
  it('an upload on the wire goes on through the pause; the file not started waits for its end', () => {
    const facts = {
      ...START,
      bytesLeft: 10 * MiB,
      bytesInFlightLeft: 6 * MiB,
      filesLeft: 2,
      filesInFlight: 1,
      bytesPerSecond: MiB,
      limitBytesPerSecond: null,
      requestsPerMinute: 0,
      windowsAhead: [
        { at: START.now + 2_000, limit: { kind: 'pause' } },
        { at: START.now + 62_000, limit: { kind: 'off' } },
      ],
    } as const;
    // 6 s for the bytes on the wire (the pause starts at 2 s and does not stop them), then the other 4 MiB
    // once the pause ends at 62 s.
    expect(estimateTimeLeft(facts)).toEqual({ seconds: 66, bound: 'schedule' });
    expect(estimateTimeLeft({ ...facts, bytesLeft: 6 * MiB, filesLeft: 1 })).toEqual({
      seconds: 6,
      bound: 'bytes',
    });
  });
});

// The header counts down from the core's estimate while nothing new is said (a 45-minute pause sends no
// progress): the figure it showed stayed "44 min 49 s" for the whole pause.
describe('time left counted down from when it was said', () => {
  it.each([
    ['just said', 2_700, 1_000, 1_000, 2_700],
    ['ten minutes later', 2_700, 1_000, 601_000, 2_100],
    ['past its end: zero, never below', 30, 1_000, 61_000, 0],
    ['no time of estimate: as said', 30, null, 61_000, 30],
  ] as const)('%s', (_n, seconds, at, now, expected) => {
    expect(timeLeftNow(seconds, at, now)).toBe(expected);
  });
});
