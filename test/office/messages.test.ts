import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  decodeMessage,
  encodeMessage,
  MAX_MESSAGE_BYTES,
  type Message,
  macKey,
} from '../../src-main/core/office/protocol';
import { ids, memoryLink } from './link';

const SCOPE = '00000000000000aa';
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_125);

const hb: Message = {
  t: 'hb',
  from: ids(9),
  term: 1,
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
      Buffer.from(JSON.stringify({ p: 'assets-sync-office', v: 1, scope: SCOPE, ...m }));
    expect(decodeMessage(json({ ...hb, used: -1 }), SCOPE, null)).toBeNull();
    expect(decodeMessage(json({ ...hb, name: 'a\u0007b' }), SCOPE, null)).toBeNull();
    expect(decodeMessage(json({ ...hb, extra: 1 }), SCOPE, null)).toBeNull();
    expect(decodeMessage(json({ ...hb, t: 'grant' }), SCOPE, null)).toBeNull();
    expect(decodeMessage(json({ ...hb, v: 2 }), SCOPE, null)).toBeNull();
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

  it('is dropped, never a crash, and a lease from a desk that is not the holder (or of an old term) grants nothing', async () => {
    const link = memoryLink();
    const t0 = Date.now();
    const a = await link.desk({ id: ids(1), startedAt: t0 - 3_000 });
    const b = await link.desk({ id: ids(2), startedAt: t0 - 2_000 });
    await vi.advanceTimersByTimeAsync(2_000);
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
