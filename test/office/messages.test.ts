import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  decodeDatagram,
  decodeMessage,
  encodeMessage,
  MAX_MESSAGE_BYTES,
  type Message,
  macKey,
} from '../../src-main/core/office/protocol';
import { ids, memoryLink, nextSeq, takes, termOf, twoDesks } from './link';

const SCOPE = '00000000000000aa';
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_125);

const hb: Message = {
  t: 'hb',
  from: ids(9),
  term: 1,
  seq: 1,
  start: 1,
  name: 'desk',
  ver: '0.1.0',
  demand: { now: 0, sync: 3, bg: 0 },
  used: 4,
  holder: null,
};

describe('office messages', () => {
  it('round-trip, with and without an office key', () => {
    expect(decodeMessage(encodeMessage(hb, SCOPE, null), SCOPE, null)).toEqual(hb);
    const key = macKey('our office');
    expect(decodeMessage(encodeMessage(hb, SCOPE, key), SCOPE, key)).toEqual(hb);
  });

  it('drop what is not exactly ours: another office, no MAC or a wrong one, too large, a field out of range', () => {
    const key = macKey('our office');
    expect(decodeMessage(encodeMessage(hb, 'ffffffffffffffff', null), SCOPE, null)).toBeNull();
    expect(decodeMessage(encodeMessage(hb, SCOPE, null), SCOPE, key)).toBeNull();
    expect(decodeMessage(encodeMessage(hb, SCOPE, macKey('another key')), SCOPE, key)).toBeNull();
    expect(decodeMessage(encodeMessage(hb, SCOPE, key), SCOPE, null)).toBeNull();
    const tampered = encodeMessage(hb, SCOPE, key).toString().replace('"used":4', '"used":5');
    expect(decodeMessage(Buffer.from(tampered), SCOPE, key)).toBeNull();
    expect(decodeMessage(Buffer.alloc(MAX_MESSAGE_BYTES + 1, 32), SCOPE, null)).toBeNull();
    const json = (m: object) =>
      Buffer.from(JSON.stringify({ p: 'assets-sync-office', v: 2, scope: SCOPE, ...m }));
    expect(decodeMessage(json({ ...hb, used: -1 }), SCOPE, null)).toBeNull();
    expect(decodeMessage(json({ ...hb, name: 'a\u0007b' }), SCOPE, null)).toBeNull();
    expect(decodeMessage(json({ ...hb, extra: 1 }), SCOPE, null)).toBeNull();
    expect(decodeMessage(json({ ...hb, t: 'grant' }), SCOPE, null)).toBeNull();
    expect(decodeMessage(json({ ...hb, v: 1 }), SCOPE, null)).toBeNull();
  });

  it('a keyed datagram: the MAC covers the exact bytes sent; nothing appended, moved or inside the JSON passes', () => {
    const key = macKey('our office');
    const signed = encodeMessage(hb, SCOPE, key);
    const text = signed.toString();
    const body = text.slice(0, text.lastIndexOf('\n'));
    const trailer = text.slice(text.lastIndexOf('\n'));
    // Version 1's hole: fields after the signed ones overrode them (JSON.parse keeps the last of a name).
    expect(decodeMessage(Buffer.from(`${body.slice(0, -1)},"used":99}${trailer}`), SCOPE, key)).toBeNull();
    expect(decodeMessage(Buffer.concat([signed, Buffer.from(',"used":99}')]), SCOPE, key)).toBeNull();
    expect(decodeMessage(Buffer.from(`${body} ${trailer}`), SCOPE, key)).toBeNull();
    // The MAC inside the JSON (version 1's place) is no MAC, and a field the schema does not know.
    expect(
      decodeMessage(Buffer.from(`${body.slice(0, -1)},"mac":"${trailer.slice(1)}"}`), SCOPE, key),
    ).toBeNull();
    expect(decodeDatagram(Buffer.from(body), SCOPE, key)).toEqual({ ok: false, why: 'unsigned' });
    expect(decodeDatagram(signed, SCOPE, null)).toEqual({ ok: false, why: 'signed-in-open-office' });
    expect(decodeDatagram(signed, SCOPE, key)).toEqual({ ok: true, m: hb });
  });

  it('take terms up to 2^31 - 1 only: one above any of them is still exact, and every receiver takes it', () => {
    const json = (m: object) =>
      Buffer.from(JSON.stringify({ p: 'assets-sync-office', v: 2, scope: SCOPE, ...m }));
    expect(decodeMessage(json({ ...hb, term: 2 ** 31 - 1 }), SCOPE, null)).toMatchObject({
      term: 2 ** 31 - 1,
    });
    expect(decodeMessage(json({ ...hb, term: 2 ** 31 }), SCOPE, null)).toBeNull();
    expect(decodeMessage(json({ ...hb, term: Number.MAX_SAFE_INTEGER }), SCOPE, null)).toBeNull();
  });

  it('never throw on any bytes (fuzzed: random bytes, random JSON, mutated real messages)', () => {
    const valid = encodeMessage(hb, SCOPE, null).toString();
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 5000 }).map((a) => Buffer.from(a)),
          fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v) ?? '')),
          fc
            .tuple(fc.nat(valid.length), fc.nat(valid.length), fc.string({ maxLength: 30 }))
            .map(([a, b, s]) =>
              Buffer.from(valid.slice(0, Math.min(a, b)) + s + valid.slice(Math.max(a, b))),
            ),
        ),
        (data) => {
          const m = decodeMessage(data, SCOPE, null);
          // Whatever came out is a well-formed message, or nothing.
          if (m !== null) expect(typeof m.t).toBe('string');
        },
      ),
      { seed: SEED, numRuns: 2_000 },
    );
  });
});

describe("a peer's bad message", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A heartbeat from a desk that does not exist (started now: it never holds), with `term`. */
  const forgedHb = (term: number) =>
    encodeMessage({ ...hb, from: ids(7), term, seq: nextSeq(), start: Date.now() }, SCOPE, null);
  const grant = (from: string, to: string, term: number, n: number): Message => ({
    t: 'grant',
    from,
    term,
    seq: nextSeq(),
    to,
    n,
    ttlMs: 10_000,
    probe: false,
    share: 115,
    ceiling: 115,
    desks: 1,
    pauseMs: 0,
  });

  it('a heartbeat or grant with a huge term is dropped: the office keeps its term and its holder, and the desks its grants', async () => {
    // One such datagram used to make every desk take its term, and the holder one above it: 2^53, which
    // every receiver's schema refused, so the office lost its holder's grants until restart.
    const link = memoryLink();
    const t0 = Date.now();
    const lines = [[], [], []] as string[][];
    const [a, b, c] = [
      await link.desk({ id: ids(1), startedAt: t0 - 3_000, log: (l) => lines[0]!.push(l) }),
      await link.desk({ id: ids(2), startedAt: t0 - 2_000, log: (l) => lines[1]!.push(l) }),
      await link.desk({ id: ids(3), startedAt: t0 - 1_000, log: (l) => lines[2]!.push(l) }),
    ];
    await vi.advanceTimersByTimeAsync(2_000);
    expect(a.desk.role().kind).toBe('holder');
    const term = termOf(a);
    for (let i = 0; i < 20; i++) {
      for (const huge of [Number.MAX_SAFE_INTEGER, 2 ** 31 - 1, term + 1_001]) {
        for (const d of [a, b, c]) link.inject(d.port, forgedHb(huge), 1234);
        // In the holder's name, from its port: no places, only the term.
        link.inject(c.port, encodeMessage(grant(ids(1), ids(3), huge, 0), SCOPE, null), a.port);
      }
      await vi.advanceTimersByTimeAsync(250);
    }
    await vi.advanceTimersByTimeAsync(3_000);
    expect(a.desk.role()).toMatchObject({ kind: 'holder', term });
    for (const d of [b, c]) expect(d.desk.role()).toMatchObject({ kind: 'follower', holderId: ids(1), term });
    // Their places come from the holder, not their own word.
    const [gotB, gotC] = [takes(b.budget, 5), takes(c.budget, 5)];
    await vi.advanceTimersByTimeAsync(6_000);
    expect([gotB.n, gotC.n]).toEqual([5, 5]);
    expect([b.budget.sentOnOwn, c.budget.sentOnOwn]).toEqual([0, 0]);
    // Said once per desk, not once per datagram; again after a minute if it goes on.
    for (const l of lines) expect(l.filter((x) => /term/.test(x))).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(60_000);
    link.inject(b.port, forgedHb(2 ** 31 - 1), 1234);
    expect(lines[1]!.filter((x) => /term/.test(x))).toHaveLength(2);
    for (const d of [a, b, c]) await d.desk.close();
  });

  it('a fresh desk whose first message is a forged huge term still joins, and takes its places from the holder', async () => {
    const link = memoryLink();
    const { a, b } = await twoDesks(link, (ms) => vi.advanceTimersByTimeAsync(ms));
    const term = termOf(a);
    // The new desk hears nobody but the forger until the forged heartbeats have reached it.
    const port = link.nextPort;
    link.partition(a.port, port);
    link.partition(b.port, port);
    const c = await link.desk({ id: ids(3), startedAt: Date.now() });
    for (const huge of [2 ** 31 - 1, Number.MAX_SAFE_INTEGER]) link.inject(c.port, forgedHb(huge), 1234);
    await vi.advanceTimersByTimeAsync(500);
    link.heal();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(termOf(a)).toBeLessThanOrEqual(term + 1);
    expect(c.desk.role()).toMatchObject({ kind: 'follower', holderId: ids(1), term: termOf(a) });
    const got = takes(c.budget, 10);
    await vi.advanceTimersByTimeAsync(6_000);
    expect(got.n).toBe(10);
    expect(c.budget.sentOnOwn).toBe(0);
    for (const d of [a, b, c]) await d.desk.close();
  });

  it('is dropped, never a crash, and a lease from a desk that is not the holder (or of an old term) grants nothing', async () => {
    const link = memoryLink();
    const { a, b } = await twoDesks(link, (ms) => vi.advanceTimersByTimeAsync(ms));
    const before = b.desk.role();
    expect(before).toMatchObject({ kind: 'follower', holderId: ids(1) });
    // Garbage of every kind at b.
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => {
        link.inject(b.port, Buffer.from(bytes), a.port);
      }),
      { seed: SEED, numRuns: 300 },
    );
    // A well-formed grant of 64 places from a desk that is not the holder, and one from the holder's id
    // but of a term below the highest b has heard.
    const grant = (from: string, term: number): Message => ({
      t: 'grant',
      from,
      term,
      seq: nextSeq(),
      to: ids(2),
      n: 64,
      ttlMs: 10_000,
      probe: false,
      share: 115,
      ceiling: 115,
      desks: 1,
      pauseMs: 0,
    });
    // Pause a's grants so that only the forged ones could let b send.
    link.kill(a.port);
    link.inject(b.port, encodeMessage(grant(ids(7), 99), SCOPE, null), 1234);
    link.inject(b.port, encodeMessage(grant(ids(1), 0), SCOPE, null), a.port);
    await vi.advanceTimersByTimeAsync(10);
    let sent = 0;
    for (let i = 0; i < 64; i++) void b.budget.take(undefined, 'sync').then(() => sent++);
    await vi.advanceTimersByTimeAsync(500);
    // Only what b's equal share allows on its own word (a second's worth or so), never the 64 forged places.
    expect(sent).toBeLessThanOrEqual(2);
    expect(b.desk.role()).toMatchObject({ kind: 'follower', holderId: ids(1) });
    await b.desk.close();
  });
});
