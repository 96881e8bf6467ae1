import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAimd, OFFICE_AIMD } from '../../src-main/core/office/aimd';
import { decodeMessage, macKey } from '../../src-main/core/office/protocol';
import { ids, memoryLink, takes } from './link';

// The holder and the desks' budgets on a fake clock: vitest's fake timers drive Date.now and the timers.
beforeEach(() => {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

async function office(n: number, key?: Buffer) {
  const link = memoryLink();
  const t0 = Date.now();
  const desks = [];
  for (let i = 1; i <= n; i++)
    desks.push(await link.desk({ id: ids(i), startedAt: t0 - 10_000 + i, ...(key ? { key } : {}) }));
  await vi.advanceTimersByTimeAsync(2_000);
  return { link, desks };
}

const grantsTo = (sent: { to: number; data: Buffer }[], port: number) =>
  sent.filter((s) => s.to === port && decodeMessage(s.data, '00000000000000aa', null)?.t === 'grant').length;

describe('the office budget: leases from the holder', () => {
  it('is max-min fair by demand: a desk that wants 3 gets 3, the busy ones split the rest evenly', async () => {
    const { desks } = await office(3);
    const [a, b, c] = desks as [(typeof desks)[0], (typeof desks)[0], (typeof desks)[0]];
    expect(a.desk.role().kind).toBe('holder');
    const small = takes(b.budget, 3);
    const big1 = takes(a.budget, 200);
    const big2 = takes(c.budget, 200);
    // Just under a minute: the places of the first moment free again at 60 s.
    await vi.advanceTimersByTimeAsync(59_000);
    expect(small.n).toBe(3);
    // The holder was alive throughout: no desk sent on its own word.
    expect(desks.map((d) => d.budget.sentOnOwn)).toEqual([0, 0, 0]);
    // One window: at most the ceiling in all, less the small desk's 3, split evenly (one lease of slack).
    expect(small.n + big1.n + big2.n).toBeLessThanOrEqual(115);
    expect(Math.abs(big1.n - big2.n)).toBeLessThanOrEqual(4);
    expect(big1.n + big2.n).toBeGreaterThanOrEqual(100);
    for (const d of desks) await d.desk.close();
  });

  it('an idle desk takes nothing: the busy desk gets the whole window', async () => {
    const { desks } = await office(2);
    const busy = takes(desks[1]!.budget, 200);
    await vi.advanceTimersByTimeAsync(59_000);
    expect(busy.n).toBeGreaterThanOrEqual(110);
    expect(busy.n).toBeLessThanOrEqual(115);
    for (const d of desks) await d.desk.close();
  });

  it("a fresh drop takes the window's free room at once; a backlog is paced", async () => {
    const { desks } = await office(2);
    const b = desks[1]!;
    expect(b.desk.role().kind).toBe('follower');
    // 100 files just dropped into b's watched folder (class `now`: each upload asks with `first`), the
    // holder's desk idle: all granted inside one second of the window (paced, a place every half second).
    const drop = { n: 0 };
    for (let i = 0; i < 100; i++)
      void b.budget.take(undefined, 'sync', true).then(() => {
        drop.n++;
        setTimeout(() => b.budget.replied(201), 5);
      });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(drop.n).toBe(100);
    expect(b.budget.sentOnOwn).toBe(0);
    // A backlog after it is paced, and the burst borrowed from the pace: its places come once the steady rate
    // has caught up with the drop's 100 (52 s at 115 a minute), not into the window's last 15 at once.
    await vi.advanceTimersByTimeAsync(30_000);
    const backlog = takes(b.budget, 15);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(backlog.n).toBe(0);
    await vi.advanceTimersByTimeAsync(20_000);
    // All 15 in the minute: asks sent before a grant arrived, granted again, had spent places of it for nothing.
    expect(backlog.n).toBe(15);
    expect(b.budget.sentOnOwn).toBe(0);
    for (const d of desks) await d.desk.close();
  });

  it('a lone request of the class (a /me, a listing) goes at the pace: only a drop, several at once, bursts', async () => {
    const { desks } = await office(2);
    const b = desks[1]!;
    // One user request after another, each asked once the one before went: never two waiting at once.
    const got = { n: 0 };
    void (async () => {
      for (let i = 0; i < 10; i++) {
        await b.budget.take(undefined, 'user');
        got.n++;
        b.budget.replied(200);
      }
    })();
    // The holder's burst of 2, then a place every half second: let through, all ten went at once, and at the
    // start of a run every desk's first requests borrowed from the pace (own-word sends, the simulation's once-6).
    await vi.advanceTimersByTimeAsync(1_000);
    expect(got.n).toBeLessThanOrEqual(4);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(got.n).toBe(10);
    for (const d of desks) await d.desk.close();
  });

  it("a request counts from its answer: one answered seconds after its place was taken stays in the desk's minute", async () => {
    const { desks } = await office(2);
    const b = desks[1]!;
    await b.budget.take(undefined, 'sync');
    // The place was taken now; the process stalls and the request reaches the service 4 s later (twelve
    // desks starting on two cores: bench:office once-12 saw 2 to 4 s). The service counts it from then.
    await vi.advanceTimersByTimeAsync(4_000);
    b.budget.replied(201);
    await vi.advanceTimersByTimeAsync(58_000); // 62 s after the place, 58 s after the answer
    expect(b.budget.used).toBe(1);
    await vi.advanceTimersByTimeAsync(2_500);
    expect(b.budget.used).toBe(0);
    for (const d of desks) await d.desk.close();
  });

  it('a lease not used within its few seconds is lost: the next request asks the holder again', async () => {
    const { link, desks } = await office(2);
    const b = desks[1]!;
    const abort = new AbortController();
    const waiting = b.budget.take(abort.signal, 'sync').catch(() => 'aborted');
    abort.abort();
    expect(await waiting).toBe('aborted');
    await vi.advanceTimersByTimeAsync(100);
    expect(grantsTo(link.sent, b.port)).toBe(1);
    // The place granted for the aborted request is held, unused, past its time to live.
    await vi.advanceTimersByTimeAsync(6_000);
    let granted = false;
    void b.budget.take(undefined, 'sync').then(() => {
      granted = true;
    });
    await vi.advanceTimersByTimeAsync(100);
    expect(granted).toBe(true);
    expect(grantsTo(link.sent, b.port)).toBe(2);
    for (const d of desks) await d.desk.close();
  });

  it('a holder that grants nothing (killed) costs a desk at most its equal share: it sends on its own meanwhile', async () => {
    const { link, desks } = await office(3);
    const [a, b] = desks as [(typeof desks)[0], (typeof desks)[0]];
    link.kill(a.port);
    const got = takes(b.budget, 10);
    // Before anyone notices the holder is gone (3.5 s), b still gets places at ceiling / 3 desks at least.
    await vi.advanceTimersByTimeAsync(3_000);
    expect(got.n).toBeGreaterThanOrEqual(1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(b.desk.role().kind).toBe('holder');
    expect(got.n).toBe(10);
    for (const d of desks.slice(1)) await d.desk.close();
  });
});

describe('AIMD', () => {
  const start = () => {
    const a = createAimd({ ...OFFICE_AIMD, max: 115 }, 0);
    const clock = { t: 0 };
    const clean = (ms: number) => {
      for (const end = clock.t + ms; clock.t < end; clock.t += 1_000) a.answered(clock.t);
      a.tick(clock.t);
    };
    return { a, clock, clean };
  };

  it('a 429 cuts under what was really sent; the ceiling holds, stays under the refused level for minutes, then climbs', () => {
    const { a, clock, clean } = start();
    // The address was full with 100 of this ceiling's requests in it: R = 100, the cut to 0.9 R.
    expect(a.limited(clock.t, { used: 100 })).toBe(true);
    expect(a.value).toBe(90);
    expect(a.refusedAt).toBe(100);
    // A second 429 of the same crowded moment lowers nothing more.
    expect(a.limited(clock.t + 1_000, { used: 90 })).toBe(false);
    // A minute of holding, then nothing between 0.9 R and R for five minutes after the cut (going back to R
    // costs refused requests each time).
    clean(295_000);
    expect(a.value).toBe(90);
    // Then slowly (1 a minute every 30 s, times this ceiling's part of the address: 100 / 115).
    clean(300_000);
    expect(a.value).toBeGreaterThanOrEqual(97);
    expect(a.value).toBeLessThanOrEqual(99);
    // Ten minutes after the cut R is forgotten: 1 every 5 s again, never above the maximum.
    clean(100_000);
    expect(a.value).toBe(115);
    expect(a.refusedAt).toBeNull();
    // A period with no request answered raises nothing.
    a.limited(clock.t);
    const low = a.value;
    clock.t += 600_000;
    a.tick(clock.t);
    expect(a.value).toBe(low);
  });

  it('a desk that held a small part of the address climbs at that part of the pace', () => {
    const big = start();
    const small = start();
    big.a.limited(0, { used: 100 });
    small.a.limited(0, { used: 20 });
    big.clean(600_000);
    small.clean(600_000);
    const climbed = (x: ReturnType<typeof start>, from: number) => x.a.value - from;
    expect(climbed(small, 18)).toBeGreaterThan(0);
    expect(climbed(small, 18)).toBeLessThan(climbed(big, 90) / 3);
  });

  it('alone, a floor keeps a late desk from being cut to nothing; each further cut within minutes halves it', () => {
    const { a, clock } = start();
    // It had sent 5 when the address was found full: cut to the floor of 12, not to 4.
    a.limited(clock.t, { used: 5, floor: 12 });
    expect(a.value).toBe(12);
    clock.t += 10_000;
    a.limited(clock.t, { used: 5, floor: 12 });
    expect(a.value).toBe(6);
    // Never under the minimum (a probe's worth).
    clock.t += 10_000;
    a.limited(clock.t, { used: 1, floor: 12 });
    expect(a.value).toBe(OFFICE_AIMD.min);
  });

  it("a new holder starting from a cut's ceiling does not climb back at once to where the address was refused", () => {
    const { a, clean } = start();
    a.reset(90, 0);
    expect(a.value).toBe(90);
    expect(a.refusedAt).toBe(100);
    clean(200_000);
    expect(a.value).toBe(90);
  });
});

describe("the user's request rate (Settings) on a desk", () => {
  it('caps what the AIMD allows; lowered to 1 and raised again, the learned ceiling is back at once', () => {
    const a = createAimd({ ...OFFICE_AIMD, max: 115 }, 0);
    a.setMax(1);
    expect(a.value).toBe(1);
    a.setMax(115);
    expect(a.value).toBe(115);
  });
});

describe('the office budget: 429s', () => {
  it("any desk's 429 lowers the office's ceiling under what the office had sent, once per crowded moment", async () => {
    const { desks } = await office(2);
    const [a, b] = desks as [(typeof desks)[0], (typeof desks)[0]];
    const ceiling = () => (a.desk.role() as { ceiling: number }).ceiling;
    expect(ceiling()).toBe(115);
    const got = takes(a.budget, 40);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(got.n).toBe(40);
    // The address was full with the office's 40 (and a lease's few unused places) in its window: the cut
    // goes to 0.9 of that, not of the ceiling (someone nobody sees spends the rest).
    b.budget.rateLimited(10_000);
    await vi.advanceTimersByTimeAsync(10);
    const cut = ceiling();
    expect(cut).toBeGreaterThanOrEqual(Math.floor(0.9 * 40));
    expect(cut).toBeLessThanOrEqual(Math.floor(0.9 * 44));
    // A second 429 of the same crowded moment lowers nothing more.
    b.budget.rateLimited(10_000);
    await vi.advanceTimersByTimeAsync(10);
    expect(ceiling()).toBe(cut);
    for (const d of desks) await d.desk.close();
  });

  it('a 429 without Retry-After pauses every desk of a keyed office, then sends one probe after about 2 s, then 4 s; an answer resumes', async () => {
    const { desks } = await office(3, macKey('our office'));
    const [a, b, c] = desks as [(typeof desks)[0], (typeof desks)[0], (typeof desks)[0]];
    b.budget.rateLimited(undefined);
    await vi.advanceTimersByTimeAsync(50);
    const ga = takes(a.budget, 5);
    const gc = takes(c.budget, 5);
    await vi.advanceTimersByTimeAsync(1_900);
    expect(ga.n + gc.n).toBe(0);
    await vi.advanceTimersByTimeAsync(200);
    // One probe, to one desk.
    expect(ga.n + gc.n).toBe(1);
    const prober = ga.n === 1 ? a : c;
    prober.budget.rateLimited(undefined);
    await vi.advanceTimersByTimeAsync(3_900);
    expect(ga.n + gc.n).toBe(1);
    const before = { a: ga.n, c: gc.n };
    await vi.advanceTimersByTimeAsync(200);
    // The second probe, after about 4 s: one more request in all, from whichever desk it went to.
    expect(ga.n + gc.n).toBe(2);
    const second = ga.n > before.a ? a : c;
    second.budget.replied(200);
    await vi.advanceTimersByTimeAsync(2_000);
    // Resumed: a burst's places at once, at the cut ceiling (the office had sent nothing when the address was
    // found full, so the cut went to the minimum) and its pace after.
    expect(ga.n + gc.n).toBeGreaterThanOrEqual(3);
    expect((a.desk.role() as { ceiling: number }).ceiling).toBe(6);
    for (const d of desks) await d.desk.close();
  });

  it("in an open office, a desk waits on the pause (a peer's word) no longer than its equal share allows", async () => {
    const { desks } = await office(3);
    const [a, b, c] = desks as [(typeof desks)[0], (typeof desks)[0], (typeof desks)[0]];
    b.budget.rateLimited(undefined);
    await vi.advanceTimersByTimeAsync(50);
    const ga = takes(a.budget, 50);
    const gc = takes(c.budget, 50);
    // The probe's 2 s, and a's and c's equal share's wait (115 / 3 a minute: 2.3 s): nothing yet but the probe.
    await vi.advanceTimersByTimeAsync(2_200);
    expect(ga.n + gc.n).toBeLessThanOrEqual(1);
    // The office stays paused (the probe is never answered); each desk goes on at its equal share, not more.
    await vi.advanceTimersByTimeAsync(27_750);
    for (const g of [ga, gc]) {
      expect(g.n).toBeGreaterThanOrEqual(5);
      expect(g.n).toBeLessThanOrEqual(115 / 3 / 2 + 1);
    }
    for (const d of desks) await d.desk.close();
  });

  it('a desk alone spends the whole free window at once, then the steady rate; it runs the same AIMD on its own window', async () => {
    const link = memoryLink();
    const { desk, budget } = await link.desk({ id: ids(1), startedAt: Date.now() - 10_000 });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(desk.role().kind).toBe('alone');
    // Each request answered 5 ms after its place (a small file's upload on a fast link).
    const got = { n: 0 };
    for (let i = 0; i < 400; i++)
      void budget.take(undefined, 'sync').then(() => {
        got.n++;
        setTimeout(() => budget.replied(201), 5);
      });
    // A drop of 100 goes up at once: all granted inside one second of the window (paced after a burst of 8,
    // a place every half second, it took 50 s).
    await vi.advanceTimersByTimeAsync(1_000);
    expect(got.n).toBeGreaterThanOrEqual(100);
    // Then the window: never more than the ceiling in any 60 s ...
    await vi.advanceTimersByTimeAsync(58_900);
    expect(got.n).toBe(115);
    // ... and the ceiling a minute in the long run (the minute's places free as they come a minute old).
    await vi.advanceTimersByTimeAsync(120_000);
    expect(got.n).toBe(3 * 115);
    budget.rateLimited(1_000);
    expect(budget.ownCeiling).toBeLessThan(115);
    await desk.close();
  });

  it("a cut learned alone (its part beside desks it could not see) is forgotten once it sees them: the office's window rules", async () => {
    // Found on bench:office kill-holder-6: a desk that was briefly alone while starting up on a loaded machine
    // got one 429, was cut to 0.9 of its own few requests (25 a minute), and kept that cap for the rest of the
    // run, in the office: when the others were done it sent its last files at 25 a minute, alone and last.
    const link = memoryLink();
    const t0 = Date.now();
    const b = await link.desk({ id: ids(2), startedAt: t0 });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(b.desk.role().kind).toBe('alone');
    const sent = { n: 0 };
    for (let i = 0; i < 30; i++)
      void b.budget.take(undefined, 'sync').then(() => {
        sent.n++;
        b.budget.replied(200);
      });
    await vi.advanceTimersByTimeAsync(15_000);
    expect(sent.n).toBe(30);
    // The address was full with its 30 in it: desks it cannot see spend the rest.
    b.budget.rateLimited(1_000);
    expect(b.budget.ownCeiling).toBeLessThanOrEqual(27);
    // Those desks appear (one that started earlier holds the office), and have nothing more to send.
    const a = await link.desk({ id: ids(1), startedAt: t0 - 1_000 });
    await vi.advanceTimersByTimeAsync(3_000);
    expect(b.desk.role().kind).toBe('follower');
    expect(b.budget.ownCeiling).toBe(115);
    // B alone has demand: a minute after its 30 left the window, it has the office's whole window.
    await vi.advanceTimersByTimeAsync(45_000);
    const got = takes(b.budget, 200);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(got.n).toBeGreaterThanOrEqual(100);
    // Its own 429 in the office still cuts its own window: a peer's word never outweighs it.
    b.budget.rateLimited(1_000);
    expect(b.budget.ownCeiling).toBeLessThan(115);
    await a.desk.close();
    await b.desk.close();
  });

  it('a desk alone just after its office left reads a 429 as the address full, not as its own small part', async () => {
    // Found on bench:office once-12: the holder, the last desk with files, was alone once the others were done;
    // the service's window was full of the office's last minute, its first request was refused, and it was
    // cut under its own few requests to the floor of 12 a minute: 50 s for its last 5 files.
    const { desks } = await office(2);
    const [a, b] = desks as [(typeof desks)[0], (typeof desks)[0]];
    const got = takes(a.budget, 5);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(got.n).toBe(5);
    await b.desk.close();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(a.desk.role().kind).toBe('alone');
    a.budget.rateLimited(1_000);
    expect(a.budget.ownCeiling).toBeGreaterThanOrEqual(100);
    await a.desk.close();
  });

  it('alone, a 429 in the seconds of its burst cuts to the floor: the part it got of a race says nothing', async () => {
    // Desks that cannot see each other each burst, and the address fills within seconds: cut under what each
    // got, the simulation's blocked-6 kept parts of 11 to 31 for minutes (the last desk done 2.45x after the first).
    const link = memoryLink();
    const { desk, budget } = await link.desk({ id: ids(1), startedAt: Date.now() - 10_000 });
    await vi.advanceTimersByTimeAsync(2_000);
    for (let i = 0; i < 30; i++)
      void budget.take(undefined, 'sync').then(() => setTimeout(() => budget.replied(201), 5));
    await vi.advanceTimersByTimeAsync(2_000);
    expect(budget.used).toBe(30);
    budget.rateLimited(57_000);
    expect(budget.ownCeiling).toBe(12);
    await desk.close();
  });

  it("joining, a drop's first requests go at once (/me twice, the listing, the first upload), then one as one of two desks", async () => {
    const link = memoryLink();
    // A desk found (its port offered) and never heard: a process stalled on a loaded machine.
    const stalled = await link.desk({ id: ids(2), startedAt: Date.now() - 60_000 });
    link.kill(stalled.port);
    const { desk, budget } = await link.desk({ id: ids(1), startedAt: Date.now() });
    expect(desk.role()).toEqual({ kind: 'alone', joining: true });
    const answered = (n: number) => {
      const got = { n: 0 };
      for (let i = 0; i < n; i++)
        void budget.take(undefined, 'sync').then(() => {
          got.n++;
          budget.replied(201);
        });
      return got;
    };
    const got = answered(10);
    await vi.advanceTimersByTimeAsync(50);
    expect(got.n).toBe(4);
    // Then a place per equal share of two desks (about a second) while the desk found is not heard.
    await vi.advanceTimersByTimeAsync(900);
    expect(got.n).toBe(4);
    await vi.advanceTimersByTimeAsync(200);
    expect(got.n).toBe(5);
    // Joining ends 1.5 s after the start: alone, the rest at once.
    await vi.advanceTimersByTimeAsync(500);
    expect(got.n).toBe(10);
    await desk.close();
    await stalled.desk.close();
  });

  it('a desk whose discoveries found no other desk is alone after half a second: a drop goes at once', async () => {
    const link = memoryLink();
    const { desk, budget } = await link.desk({ id: ids(1), startedAt: Date.now() });
    const got = { n: 0 };
    for (let i = 0; i < 30; i++)
      void budget.take(undefined, 'sync').then(() => {
        got.n++;
        budget.replied(201);
      });
    await vi.advanceTimersByTimeAsync(50);
    expect(got.n).toBe(4);
    await vi.advanceTimersByTimeAsync(500);
    expect(desk.role()).toEqual({ kind: 'alone', joining: false });
    expect(got.n).toBe(30);
    await desk.close();
  });

  it('alone, one request on its way at a time: an unanswered one holds the next for a second', async () => {
    const link = memoryLink();
    const { desk, budget } = await link.desk({ id: ids(1), startedAt: Date.now() - 10_000 });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(desk.role().kind).toBe('alone');
    // Desks that cannot see each other meet the limit together: each pays one refused request, not a burst.
    const got = takes(budget, 50);
    await vi.advanceTimersByTimeAsync(100);
    expect(got.n).toBe(1);
    await vi.advanceTimersByTimeAsync(9_950);
    expect(got.n).toBeGreaterThanOrEqual(10);
    expect(got.n).toBeLessThanOrEqual(11);
    await desk.close();
  });
});
