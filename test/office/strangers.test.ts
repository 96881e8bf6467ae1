import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LEASE_MAX } from '../../src-main/core/office/holder';
import {
  decodeMessage,
  encodeMessage,
  type Message,
  type MessageOf,
  macKey,
} from '../../src-main/core/office/protocol';
import { ids, memoryLink, nextSeq, termOf } from './link';

/**
 * A stranger on the network (issue 32) against running desks on a fake clock: the real desks, holder and
 * budgets on the in-memory link, and forged datagrams injected as if from another machine. Each test asserts
 * what the desks got done and how many requests each sent in any 60 s.
 */
const SCOPE = '00000000000000aa';
const LIMIT = 115;
const STRANGER = 'ee00000000000000';
const KEY = macKey('our office');

beforeEach(() => {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

type Link = ReturnType<typeof memoryLink>;

/** `n` desks, each with a backlog of 500 requests; `sends[i]` the times desk i's requests were let go. */
async function busyOffice(link: Link, n: number, key?: Buffer) {
  const t0 = Date.now();
  const desks = [];
  for (let i = 1; i <= n; i++)
    desks.push(await link.desk({ id: ids(i), startedAt: t0 - 10_000 + i, ...(key ? { key } : {}) }));
  await vi.advanceTimersByTimeAsync(2_000);
  const sends = desks.map(() => [] as number[]);
  desks.forEach((d, i) => {
    for (let k = 0; k < 500; k++)
      void d.budget.take(undefined, 'sync').then(() => {
        sends[i]!.push(Date.now());
        d.budget.replied(200);
      });
  });
  return { desks, sends };
}

/** The most requests in any 60 s of `times`. */
function perMinuteMax(times: number[]): number {
  let best = 0;
  let from = 0;
  for (let i = 0; i < times.length; i++) {
    while (times[i]! - times[from]! >= 60_000) from++;
    best = Math.max(best, i - from + 1);
  }
  return best;
}

/** A stranger that claims the office: an earlier start than any desk, so every desk follows it. */
function forgedHolderHb(term: number, office: { ceiling: number; desks: number; pauseMs: number }): Buffer {
  return encodeMessage(
    {
      t: 'hb',
      from: STRANGER,
      term,
      seq: nextSeq(),
      start: 0,
      name: 'stranger',
      ver: 'x',
      demand: { now: 0, sync: 0, bg: 0 },
      used: 0,
      holder: STRANGER,
      office: { ...office, shares: [] },
    },
    SCOPE,
    null,
  );
}

function forgedGrant(to: string, term: number, n: number): Buffer {
  return encodeMessage(
    {
      t: 'grant',
      from: STRANGER,
      term,
      seq: nextSeq(),
      to,
      n,
      ttlMs: 10_000,
      probe: false,
      share: 10_000,
      ceiling: 10_000,
      desks: 1,
      pauseMs: 0,
    },
    SCOPE,
    null,
  );
}

/** Runs `each` every `everyMs` for `ms` of the fake clock. */
async function during(ms: number, everyMs: number, each: () => void): Promise<void> {
  for (let t = 0; t < ms; t += everyMs) {
    each();
    await vi.advanceTimersByTimeAsync(everyMs);
  }
}

describe('an open office against a stranger', () => {
  it.each([
    ['a pause of 60 s', { ceiling: LIMIT, desks: 3, pauseMs: 60_000 }, 1],
    ['a ceiling of 1', { ceiling: 1, desks: 3, pauseMs: 0 }, 1],
    ['32 desks and a huge term', { ceiling: LIMIT, desks: 32, pauseMs: 60_000 }, 2 ** 31 - 1],
  ])(
    'a forged holder saying %s each second stalls no desk: each still sends its equal share, never more than its limit',
    async (_, office, term) => {
      const link = memoryLink();
      const { desks, sends } = await busyOffice(link, 3);
      // Once the stranger holds, the honest holder steps down; the forged word is all the desks hear of an office.
      await during(60_000, 1_000, () => {
        for (const d of desks)
          link.inject(d.port, forgedHolderHb(term === 1 ? termOf(d) + 1 : term, office), 1234);
      });
      // Every desk follows the stranger (its start is the earliest): the forged word is the office's.
      for (const d of desks) expect(d.desk.role()).toMatchObject({ kind: 'follower', holderId: STRANGER });
      for (const s of sends) {
        // Before: 0 requests after the first seconds. Now at least its equal share among the 4 desks it hears,
        // on its own word, of at least half its own ceiling (a place every 6.3 s at worst: `ceiling: 1`).
        expect(s.filter((at) => at > Date.now() - 50_000).length).toBeGreaterThanOrEqual(6);
        expect(perMinuteMax(s)).toBeLessThanOrEqual(LIMIT);
      }
      for (const d of desks) await d.desk.close();
    },
  );

  it("a forged holder's grants of 64 places and a ceiling of 10,000: each desk at its own pace, never past its own limit in 60 s", async () => {
    const link = memoryLink();
    const { desks, sends } = await busyOffice(link, 3);
    const start = Date.now();
    await during(60_000, 100, () => {
      for (const d of desks) {
        link.inject(d.port, forgedHolderHb(termOf(d) + 1, { ceiling: 10_000, desks: 1, pauseMs: 0 }), 1234);
        link.inject(d.port, forgedGrant(d.desk.id, termOf(d), 64), 1234);
      }
    });
    for (const d of desks) expect(d.desk.role()).toMatchObject({ kind: 'follower', holderId: STRANGER });
    for (const d of desks) expect((d.desk.role() as { ceiling: number }).ceiling).toBeLessThanOrEqual(LIMIT);
    for (const s of sends) {
      // Before: 115 in the first 5 s (the desk's whole minute at once). Now a burst of 8, then 115 a minute.
      expect(s.filter((at) => at < start + 5_000).length).toBeLessThanOrEqual(8 + 10 + LEASE_MAX);
      expect(perMinuteMax(s)).toBeLessThanOrEqual(LIMIT);
    }
    for (const d of desks) await d.desk.close();
  });

  it('forged grants against a service that refuses past 120 a minute: each desk, refused again and again, plans alone (a few 429s, not hundreds)', async () => {
    const link = memoryLink();
    const t0 = Date.now();
    const desks: Awaited<ReturnType<typeof link.desk>>[] = [];
    for (let i = 1; i <= 6; i++) desks.push(await link.desk({ id: ids(i), startedAt: t0 - 10_000 + i }));
    await vi.advanceTimersByTimeAsync(2_000);
    // The service's sliding window over the address: a request past 120 in 60 s is refused with Retry-After.
    const admitted: number[] = [];
    let [refused, sent] = [0, 0];
    const answer = (b: (typeof desks)[number]['budget']) => {
      const t = Date.now();
      while (admitted.length > 0 && admitted[0]! <= t - 60_000) admitted.shift();
      if (admitted.length >= 120) {
        refused++;
        b.rateLimited(admitted[0]! + 60_000 - t);
      } else {
        admitted.push(t);
        sent++;
        b.replied(200);
      }
    };
    for (const d of desks)
      for (let k = 0; k < 400; k++) void d.budget.take(undefined, 'sync').then(() => answer(d.budget));
    await during(180_000, 200, () => {
      for (const d of desks) {
        link.inject(d.port, forgedHolderHb(termOf(d) + 1, { ceiling: 10_000, desks: 1, pauseMs: 0 }), 1234);
        link.inject(d.port, forgedGrant(d.desk.id, termOf(d), 64), 1234);
      }
    });
    // Before: every desk at its own ceiling on the forged leases, six times the address (hundreds refused).
    // Before: 84 refused in the 3 minutes, every desk at its own ceiling on the forged leases. Now a desk
    // whose holder grants on past the Retry-After it was told plans alone (6 refused here: one a desk).
    expect(refused).toBeLessThanOrEqual(12);
    expect(sent).toBeGreaterThan(300);
    for (const d of desks) await d.desk.close();
  });

  it("a forged `bye` in the holder's name from another address changes nothing: one holder, one term", async () => {
    const link = memoryLink();
    const { desks, sends } = await busyOffice(link, 3);
    const [a, b, c] = desks as [(typeof desks)[0], (typeof desks)[0], (typeof desks)[0]];
    const term = termOf(a);
    await during(10_000, 100, () => {
      for (const d of [b, c])
        link.inject(
          d.port,
          encodeMessage({ t: 'bye', from: a.desk.id, term, seq: nextSeq() }, SCOPE, null),
          1234,
        );
    });
    // Before: b became a holder beside a, and the term climbed by two with each forged bye (1 to 21 in 10 s).
    expect(a.desk.role()).toMatchObject({ kind: 'holder', term });
    for (const d of [b, c])
      expect(d.desk.role()).toMatchObject({ kind: 'follower', holderId: a.desk.id, term });
    expect(desks.map((d) => d.budget.sentOnOwn)).toEqual([0, 0, 0]);
    expect(sends.flat().length).toBeGreaterThan(20);
    expect(b.desk.refused().total).toBeGreaterThanOrEqual(100);
    for (const d of desks) await d.desk.close();
  });

  it('a desk that hears a forged `bye` in its own name refutes it: every peer hears it at once', async () => {
    const link = memoryLink();
    const { desks } = await busyOffice(link, 3);
    const [a] = desks as [(typeof desks)[0]];
    const before = link.sent.filter((s) => s.from === a.port).length;
    link.inject(
      a.port,
      encodeMessage({ t: 'bye', from: a.desk.id, term: termOf(a), seq: nextSeq() }, SCOPE, null),
      1234,
    );
    await vi.advanceTimersByTimeAsync(1);
    const hbs = link.sent
      .slice(0)
      .filter((s) => s.from === a.port)
      .slice(before)
      .filter((s) => decodeMessage(s.data, SCOPE, null)?.t === 'hb');
    expect(hbs.length).toBeGreaterThanOrEqual(2);
    for (const d of desks) await d.desk.close();
  });
});

/** The last datagram of type `t` the link carried to `port`. */
function lastTo(link: Link, port: number, t: Message['t'], key: Buffer | null) {
  const s = [...link.sent].reverse().find((x) => x.to === port && decodeMessage(x.data, SCOPE, key)?.t === t);
  if (!s) throw new Error(`no ${t} was sent to ${port}`);
  return s;
}

describe.each([
  ['an open office', null],
  ['a keyed office', KEY],
])('%s: a replayed grant', (_, key) => {
  it('is taken once: 20 copies of a real grant add no place', async () => {
    const link = memoryLink();
    const { desks, sends } = await busyOffice(link, 2, key ?? undefined);
    const [a, b] = desks as [(typeof desks)[0], (typeof desks)[0]];
    await vi.advanceTimersByTimeAsync(5_000);
    const grant = lastTo(link, b.port, 'grant', key);
    // The holder is gone (its grants stop): only the copies could let b send now.
    link.kill(a.port);
    await vi.advanceTimersByTimeAsync(100);
    const got = sends[1]!.length;
    for (let i = 0; i < 20; i++) link.inject(b.port, grant.data, a.port);
    await vi.advanceTimersByTimeAsync(50);
    // Before: 20 copies taken, 21 extra places in 50 ms.
    expect(sends[1]!.length - got).toBe(0);
    expect(b.desk.refused()).toMatchObject({ total: 20, from: [{ address: '127.0.0.1', why: 'replayed' }] });
    for (const d of desks) await d.desk.close();
  });
});

describe('a keyed office against a stranger', () => {
  it('a tampered datagram (fields appended after the MAC, or changed) and a stranger without the key change nothing; both are counted', async () => {
    const link = memoryLink();
    const { desks, sends } = await busyOffice(link, 3, KEY);
    const [a, b] = desks as [(typeof desks)[0], (typeof desks)[0]];
    const term = termOf(a);
    await vi.advanceTimersByTimeAsync(5_000);
    const real = lastTo(link, b.port, 'grant', KEY);
    const m = decodeMessage(real.data, SCOPE, KEY) as MessageOf<'grant'>;
    const text = real.data.toString();
    const tampered = [
      // Version 1's hole: a field after the MAC overrode the signed one.
      Buffer.from(
        `${text.slice(0, text.lastIndexOf('}'))},"n":64,"seq":${m.seq + 1}}${text.slice(text.lastIndexOf('}') + 1)}`,
      ),
      Buffer.from(text.replace(`"n":${m.n}`, '"n":64').replace(`"seq":${m.seq}`, `"seq":${m.seq + 1}`)),
      Buffer.from(`${text}\n${'0'.repeat(64)}`),
    ];
    await during(30_000, 100, () => {
      for (const t of tampered) link.inject(b.port, t, a.port);
      // A stranger without the key claiming the office with a pause, and its grants.
      for (const d of desks) {
        link.inject(d.port, forgedHolderHb(term + 1, { ceiling: 10_000, desks: 32, pauseMs: 60_000 }), 1234);
        link.inject(d.port, forgedGrant(d.desk.id, term, 64), 1234);
      }
    });
    expect(a.desk.role()).toMatchObject({ kind: 'holder', term });
    for (const d of desks.slice(1))
      expect(d.desk.role()).toMatchObject({ kind: 'follower', holderId: a.desk.id, term });
    // The office ran as if nobody else were there: the holder's places only, about 115 in 37 s among 3.
    expect(desks.map((d) => d.budget.sentOnOwn)).toEqual([0, 0, 0]);
    const all = sends.flat().sort((x, y) => x - y);
    expect(perMinuteMax(all)).toBeLessThanOrEqual(LIMIT);
    for (const s of sends) expect(s.length).toBeGreaterThanOrEqual(20);
    const r = b.desk.refused();
    expect(r.total).toBeGreaterThanOrEqual(300 * 5);
    expect(r.from[0]).toMatchObject({ address: '127.0.0.1' });
    expect(b.desk.keyed).toBe(true);
    // The holder gone, fresh tampered grants (each with a new counter) are all b could send on: nothing.
    link.kill(a.port);
    await vi.advanceTimersByTimeAsync(100);
    const [got, dropped] = [sends[1]!.length, r.total];
    const again = lastTo(link, b.port, 'grant', KEY).data.toString();
    const g = decodeMessage(Buffer.from(again), SCOPE, KEY) as MessageOf<'grant'>;
    const close = again.lastIndexOf('}');
    for (let i = 1; i <= 10; i++) {
      const seq = `"seq":${g.seq + i}`;
      link.inject(
        b.port,
        Buffer.from(`${again.slice(0, close)},"n":4,${seq}}${again.slice(close + 1)}`),
        a.port,
      );
      link.inject(b.port, Buffer.from(again.replace(`"seq":${g.seq}`, seq)), a.port);
    }
    await vi.advanceTimersByTimeAsync(50);
    expect(sends[1]!.length - got).toBe(0);
    expect(b.desk.refused().total - dropped).toBe(20);
    for (const d of desks) await d.desk.close();
  });
});

describe('the desk guards its listeners', () => {
  it('a listener that throws is logged once a minute and counted, never the end of the process', async () => {
    const link = memoryLink();
    const lines: string[] = [];
    const t0 = Date.now();
    const a = await link.desk({ id: ids(1), startedAt: t0 - 3_000 });
    const b = await link.desk({ id: ids(2), startedAt: t0 - 2_000, log: (l) => lines.push(l) });
    b.desk.onChange(() => {
      throw new Error('a broken view');
    });
    b.desk.onGrant(() => {
      throw new Error('a broken counter');
    });
    let got = 0;
    for (let i = 0; i < 10; i++) void b.budget.take(undefined, 'sync').then(() => got++);
    // Before: the first heartbeat's change threw out of the timer (the process ended).
    await vi.advanceTimersByTimeAsync(10_000);
    expect(got).toBe(10);
    expect(b.desk.listenerFailures).toBeGreaterThan(5);
    expect(lines.filter((l) => /listener/.test(l))).toHaveLength(2);
    for (const d of [a, b]) await d.desk.close();
  });
});
