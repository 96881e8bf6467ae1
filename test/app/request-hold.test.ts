import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAppService } from '../../src-main/core/app/app-service';
import type { Desk } from '../../src-main/core/office/desk';
import { createOfficeBudget } from '../../src-main/core/office/office-budget';
import { createRequestBudget } from '../../src-main/core/service/request-budget';
import type { SyncOverview } from '../../src-shared/contract';
import { appStatusOf } from '../../src-shared/domain/status-facts';
import { fileStatus } from '../../src-shared/domain/status-model';
import { memorySecrets } from '../support/secrets';
import { untilEvent } from '../support/wait';

// Issue 31: a 429's hold came to the app only through the office's status, so a desk alone that was
// told to slow down said "Syncing" with a time left that did not count the wait. The hold is the
// request budget's own now, read from the budget itself.
describe("the request budget's own hold", () => {
  it.each([
    ['the single address budget', () => createRequestBudget({ perMinute: 115, now: () => t })],
    [
      'a desk alone (the office left)',
      () => createOfficeBudget({ office: false, perMinute: 115, now: () => t, random: () => 0 }),
    ],
    [
      'a desk alone (joining, no peer found)',
      () => createOfficeBudget({ office: true, perMinute: 115, now: () => t, random: () => 0 }),
    ],
  ])('%s: a Retry-After of 30 s holds every request for 30 s', (_name, make) => {
    t = 1_000_000;
    const b = make();
    expect(b.hold()).toBeNull();
    b.rateLimited(30_000);
    expect(b.hold()).toEqual({ kind: 'rate-limited', forMs: 30_000 });
    t += 12_000;
    expect(b.hold()).toEqual({ kind: 'rate-limited', forMs: 18_000 });
    t += 18_000;
    expect(b.hold()).toBeNull();
  });
});
let t = 0;

describe("a desk of an office: the office's pause is its wait, its own 429 the service's word", () => {
  it("a peer's 429 pauses the office: office-wait until it ends; this desk's own 429 is rate-limited", () => {
    t = 5_000_000;
    const b = createOfficeBudget({ office: true, perMinute: 115, now: () => t, random: () => 0 });
    let pauseUntil = 0;
    const desk = {
      keyed: true,
      role: () => ({
        kind: 'follower',
        holderId: 'h',
        term: 1,
        desks: 2,
        ceiling: 115,
        share: 57,
        pauseUntil,
      }),
      report() {},
      onGrant() {},
      onChange() {},
      ask() {},
      limited() {},
      probed() {},
    } as unknown as Desk;
    b.attach(desk);
    expect(b.hold()).toBeNull();
    pauseUntil = t + 8_000;
    expect(b.hold()).toEqual({ kind: 'office-wait', forMs: 8_000 });
    b.rateLimited(20_000);
    expect(b.hold()).toEqual({ kind: 'rate-limited', forMs: 20_000 });
    t += 20_000;
    expect(b.hold()).toBeNull();
  });
});

describe('a 429 to a desk alone, in the app', () => {
  const root = mkdtempSync(join(tmpdir(), 'app-request-hold-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('the overview holds it, every surface says it, and the time left counts the wait', async () => {
    const folder = join(root, 'folder');
    mkdirSync(folder);
    const past = new Date(Date.now() - 60_000);
    for (let i = 0; i < 12; i++) {
      writeFileSync(join(folder, `f${i}.txt`), `file ${i}\n`);
      utimesSync(join(folder, `f${i}.txt`), past, past);
    }
    // The sandbox lets 6 requests a minute through (its Retry-After says when a place frees); the app
    // keeps to its own 115: the service's 429 is what holds it.
    const app = await createAppService({
      dataDir: join(root, 'data'),
      secrets: memorySecrets(),
      env: {},
      log: () => {},
      sandboxRatePerMinute: 6,
      engine: { stabilityMs: 0 },
    });
    try {
      expect((await app.call('session.useSandbox', {})).ok).toBe(true);
      let held: SyncOverview | null = null;
      const seen = untilEvent(app, 'an overview with the hold', () => held !== null);
      const off = app.subscribe((e) => {
        if (e.event === 'sync.changed' && e.payload.holds?.rateLimited) held ??= e.payload;
      });
      const added = await app.call('sync.folders.add', { path: folder, bucket: 'held', mode: 'upload-only' });
      expect(added.ok).toBe(true);
      await seen;
      off();
      const o = held as unknown as SyncOverview;
      const until = o.holds!.rateLimited!.until!;
      const now = Date.now();
      expect(until).toBeGreaterThan(now);
      // Said as the status model says a hold: the badge, the queue's row, the reason and its end.
      const model = appStatusOf(o, { now });
      expect(model.word).toBe('Slowed by the service');
      expect(model.pendingBy.hold).toBe('rate-limited');
      expect(
        fileStatus({ state: 'QUEUED', reasonCode: null, nextRetryAt: null }, model.pendingBy.hold).word,
      ).toBe('Waiting: the service asked for fewer requests');
      expect(model.folders[0]!.pendingText).toMatch(
        /waiting: the service asked for fewer requests until \d\d:\d\d IST$/,
      );
      // The time left counts the wait (no file goes before the hold ends), and may be said.
      expect(model.mayEstimate).toBe(true);
      const fresh = await app.call('sync.overview', {});
      expect(fresh.ok).toBe(true);
      const eta = (fresh as { value: SyncOverview }).value;
      // The sandbox's Retry-After is most of a minute: the hold is still in force.
      expect(eta.holds?.rateLimited).not.toBeNull();
      expect(eta.etaSeconds).toBeGreaterThanOrEqual((eta.holds!.rateLimited!.until! - Date.now()) / 1000 - 1);
      // The files not sent wait for the hold; one refused upload waits for its own retry, after it.
      expect(['requests', 'retry']).toContain(eta.etaBound);
    } finally {
      await app.close();
    }
  });
});
