import type { Desk } from '../../../src-main/core/office/desk';
import { startDesk } from '../../../src-main/core/office/desk';
import { createOfficeBudget, type OfficeBudget } from '../../../src-main/core/office/office-budget';
import { createPacer, done, retry } from '../../../src-main/core/service/pacer';
import { SYNC_BACKOFF } from '../../../src-main/core/service/retry-policy';
import { rateLimiter } from '../../../src-main/reference-server/file-hosting/rate-limit';
import type { Measured, Scenario } from '../../../tools/bench/office/rows';
import { ids, memoryLink } from '../link';
import { type FakeClock, seeded } from './fake-clock';

/**
 * One row of bench:office, simulated on the fake clock (fake-clock.ts): N desks with their real budgets,
 * desks, holders and pacers on an in-memory link, each driven as `assets-sync sync DIR --once` drives its
 * client (three requests of the user lane, then one upload per file, four at a time, each attempt through the
 * pacer: a 429 tells the budget and takes a place again), against the reference server's own limiter
 * (rate-limit.ts, either mode) at 120 a minute. What is modelled, not real: the processes' start-up (spawn,
 * then the desk's socket and the engine's first request, spread at random), each request's time on the wire
 * and in the server, and the datagrams' delay between desks; `load` stretches all of them (a busy machine).
 * A run of a row is a pure function of its seed.
 */
export interface SimOptions {
  seed: number;
  files: number;
  /** 1: a quiet machine; larger stretches start-up, latencies and the link's delays by that factor. */
  load: number;
  /** Simulated time at most (a row that never finishes is a finding, not a hang). */
  limitMs?: number;
  /** Told every `traceMs` of simulated time (a line of figures), and of every 429. */
  trace?: (line: string) => void;
  traceMs?: number;
}

export interface SimMeasured extends Measured {
  /** Each desk's start-up: from the row's start to its first upload asked for (ms). */
  readyMs: number[];
  /** Requests the desks sent on their own word while in an office (the holder silent too long). */
  onOwn: number;
  /** The 429s the desks got (the hidden consumer's apart). */
  desksRefused: number;
}

const LIMIT = 120;
const WINDOW_MS = 60_000;
const CONCURRENCY = 4;
const USER_REQUESTS = 3;

interface SimDesk {
  index: number;
  budget: OfficeBudget | null;
  desk: Desk | null;
  port: number;
  live: number;
  liveAt: number[];
  readyAt: number | null;
  doneAt: number | null;
  killed: boolean;
  abort: AbortController;
}

export async function simulate(clock: FakeClock, s: Scenario, o: SimOptions): Promise<SimMeasured> {
  const rand = seeded(o.seed * 7919 + s.desks);
  const between = (lo: number, hi: number) => lo + (hi - lo) * rand();
  const load = o.load;
  // A fixed-strict minute starts anywhere in the run's first minute.
  const t0 = clock.now + Math.floor(rand() * WINDOW_MS);
  await clock.runUntil(() => false, t0);

  const limiter = rateLimiter(LIMIT, s.mode);
  let total = 0;
  let refused = 0;
  let desksRefused = 0;
  const admittedAt: number[] = [];
  const link = memoryLink({ delay: () => between(0.2, 3) * load, record: false });

  function request(from: 'desk' | 'hidden'): Promise<{ status: number; retryAfterMs?: number }> {
    return new Promise((resolve) => {
      setTimeout(() => {
        const d = limiter.take('127.0.0.1', Date.now());
        total++;
        if (d.ok) admittedAt.push(Date.now());
        else {
          refused++;
          if (from === 'desk') desksRefused++;
          o.trace?.(
            `${((Date.now() - t0) / 1000).toFixed(1)} 429 to ${from} (retry after ${d.retryAfterS} s)`,
          );
        }
        setTimeout(
          () =>
            resolve(
              d.ok
                ? { status: 200 }
                : d.retryAfterS === null
                  ? { status: 429 }
                  : { status: 429, retryAfterMs: d.retryAfterS * 1000 },
            ),
          between(10, 120) * load,
        );
      }, between(2, 20) * load);
    });
  }

  let hiddenSent = 0;
  let hiddenRefused = 0;
  const hiddenTimer = s.hidden
    ? setInterval(() => {
        hiddenSent++;
        void request('hidden').then((r) => {
          if (r.status === 429) hiddenRefused++;
        });
      }, WINDOW_MS / s.hidden)
    : null;

  const desks: SimDesk[] = [];
  for (let i = 0; i < s.desks; i++) {
    const d: SimDesk = {
      index: i,
      budget: null,
      desk: null,
      port: 0,
      live: 0,
      liveAt: [],
      readyAt: null,
      doneAt: null,
      killed: false,
      abort: new AbortController(),
    };
    desks.push(d);
    const spawnMs = between(500, 2_500) * load;
    setTimeout(() => spawn(d, spawnMs), spawnMs);
  }

  function spawn(d: SimDesk, spawnMs: number): void {
    const budget = createOfficeBudget({ office: true, perMinute: 115, random: rand });
    d.budget = budget;
    // The desk's socket and discovery, and the engine's first request, come a moment after the process.
    setTimeout(() => {
      if (d.killed) return;
      const transport = link.transport();
      d.port = transport.port;
      void startDesk({
        id: ids(d.index + 1),
        scope: '00000000000000aa',
        key: null,
        name: `desk ${d.index}`,
        version: 'sim',
        transport,
        discoveries: s.blocked ? [] : [link.discovery()],
        max: budget.ownCeiling,
        random: rand,
      }).then((desk) => {
        d.desk = desk;
        budget.attach(desk);
      });
    }, between(50, 400) * load);
    setTimeout(() => void engine(d, budget), between(300, 1_000) * load);
    void spawnMs;
  }

  async function engine(d: SimDesk, budget: OfficeBudget): Promise<void> {
    const pacer = createPacer({ policy: SYNC_BACKOFF, budget: () => budget, random: rand });
    const call = (lane: 'user' | 'sync') =>
      pacer.call(
        async () => {
          const r = await request('desk');
          if (r.status !== 429) budget.replied(r.status);
          return r.status === 429 ? retry(r, { rateLimited: true, retryAfterMs: r.retryAfterMs }) : done(r);
        },
        { lane, signal: d.abort.signal },
      );
    try {
      for (let i = 0; i < USER_REQUESTS; i++) await call('user');
      d.readyAt = Date.now() - t0;
      let next = 0;
      const worker = async () => {
        while (next < o.files) {
          next++;
          const r = await call('sync');
          if (r.status === 200) {
            d.live++;
            d.liveAt.push(Date.now() - t0);
          }
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      d.doneAt = Date.now() - t0;
      if (s.once) await leave(d);
    } catch {
      // Aborted: the desk was killed.
    }
  }

  async function leave(d: SimDesk): Promise<void> {
    const desk = d.desk;
    d.desk = null;
    d.budget?.detach();
    await desk?.close();
  }

  // Kill one desk (or the holder) with -9 once a third of all files are live.
  let killedAt: number | null = null;
  let victim: SimDesk | null = null;
  let recoveryMs: number | null | undefined;
  const others = () => desks.filter((d) => d !== victim);
  const watch = setInterval(() => {
    if (s.kill && killedAt === null && desks.reduce((n, d) => n + d.live, 0) >= (s.desks * o.files) / 3) {
      const kind = s.kill === 'holder' ? 'holder' : 'follower';
      victim = desks.find((d) => d.doneAt === null && d.desk?.role().kind === kind) ?? null;
      if (victim) {
        killedAt = Date.now();
        victim.killed = true;
        link.kill(victim.port);
        victim.abort.abort();
        const gone = victim.desk;
        victim.desk = null;
        void gone?.close();
      }
    }
    if (killedAt !== null && recoveryMs === undefined) {
      const alive = others().filter((d) => d.desk);
      const back = alive.every((d) => {
        const r = d.desk!.role();
        return r.kind !== 'alone' && r.desks <= s.desks - 1;
      });
      if (back && (s.kill !== 'holder' || alive.some((d) => d.desk!.role().kind === 'holder')))
        recoveryMs = Date.now() - killedAt;
    }
  }, 100);

  const traceTimer =
    o.trace &&
    setInterval(() => {
      const t = Date.now();
      while (admittedAt.length > 0 && admittedAt[0]! <= t - WINDOW_MS) admittedAt.shift();
      const roles = desks.map((d) => {
        const r = d.desk?.role();
        if (!r) return '-';
        const b = d.budget!;
        return r.kind === 'alone'
          ? `a${b.ownCeiling}/${b.used}`
          : `${r.kind === 'holder' ? 'H' : 'f'}${r.ceiling}/${b.used}${r.pauseUntil > t ? 'p' : ''}${b.sentOnOwn ? `o${b.sentOnOwn}` : ''}`;
      });
      o.trace?.(
        `${((t - t0) / 1000).toFixed(0)} server ${admittedAt.length}/60s live ${desks.reduce((n, d) => n + d.live, 0)} ${roles.join(' ')}`,
      );
    }, o.traceMs ?? 5_000);
  const limit = t0 + (o.limitMs ?? 30 * WINDOW_MS);
  await clock.runUntil(() => others().every((d) => d.doneAt !== null), limit);
  clearInterval(watch);
  if (traceTimer) clearInterval(traceTimer);
  if (hiddenTimer) clearInterval(hiddenTimer);
  for (const d of desks) {
    d.abort.abort();
    if (d.desk) await leave(d);
  }
  // Answers still on their way, and the desks' last timers.
  await clock.runUntil(() => false, clock.now + 2_000);
  if (killedAt !== null && recoveryMs === undefined) recoveryMs = null;

  const ended = others();
  const doneTimes = ended.map((d) => d.doneAt ?? clock.now - t0);
  const admitted = total - refused;
  const firstLive = Math.min(...ended.map((d) => d.liveAt[0] ?? Number.POSITIVE_INFINITY));
  return {
    admitted,
    refused,
    desksRefused,
    runMs: Math.max(...doneTimes),
    floorMs: (admitted / LIMIT) * WINDOW_MS,
    firstDoneMs: Math.min(...doneTimes),
    lastDoneMs: Math.max(...doneTimes),
    allLive: ended.every((d) => d.doneAt !== null && d.live === o.files),
    sendingMs: Math.max(1, Math.max(...doneTimes) - firstLive),
    readyMs: ended.map((d) => d.readyAt ?? Number.NaN),
    onOwn: desks.reduce((n, d) => n + (d.budget?.sentOnOwn ?? 0), 0),
    timeline: ended
      .map((d) =>
        [d.liveAt[0], d.liveAt.at(-1), d.doneAt ?? undefined]
          .map((v) => (v === undefined ? '-' : (v / 1000).toFixed(1)))
          .join('/'),
      )
      .join(' '),
    ...(s.hidden ? { hidden: { sent: hiddenSent, refused: hiddenRefused } } : {}),
    ...(recoveryMs !== undefined ? { recoveryMs } : {}),
  };
}
