import fc from 'fast-check';

/**
 * WebSocket frames (RFC 6455, section 5.2) as a client could write them, wrong on purpose: reserved
 * bits and opcodes, unmasked frames, lengths that lie or pass the limit, control frames too long or
 * fragmented, continuations without a start, text that is not UTF-8, close codes that do not exist.
 */
export interface FrameSpec {
  fin: boolean;
  rsv: number;
  opcode: number;
  masked: boolean;
  payload: Buffer;
  /** Declared length differs from the payload's: 'exact', more than sent, or a huge 64-bit value. */
  length: 'exact' | 'more' | 'huge' | 'over-limit';
}

export function encodeFrame(f: FrameSpec): { bytes: Buffer; openEnded: boolean } {
  const declared =
    f.length === 'exact'
      ? f.payload.length
      : f.length === 'more'
        ? f.payload.length + 10
        : f.length === 'over-limit'
          ? 1024 * 1024 + 1
          : Number.MAX_SAFE_INTEGER;
  const head: number[] = [(f.fin ? 0x80 : 0) | ((f.rsv & 7) << 4) | (f.opcode & 0x0f)];
  const maskBit = f.masked ? 0x80 : 0;
  if (declared < 126) head.push(maskBit | declared);
  else if (declared < 65536) head.push(maskBit | 126, declared >> 8, declared & 0xff);
  else {
    const big = Buffer.alloc(8);
    big.writeBigUInt64BE(BigInt(declared));
    head.push(maskBit | 127, ...big);
  }
  let payload = f.payload;
  if (f.masked) {
    const key = Buffer.from([0x12, 0x34, 0x56, 0x78]);
    head.push(...key);
    payload = Buffer.from(f.payload.map((b, i) => b ^ key[i % 4]!));
  }
  return { bytes: Buffer.concat([Buffer.from(head), payload]), openEnded: declared !== f.payload.length };
}

const CALL_NAMES = [
  'settings.get',
  'session.get',
  'sync.overview',
  'files.index.query',
  'activity.list',
  'nope',
  '',
];

const textPayload = fc.oneof(
  fc
    .record({
      t: fc.constantFrom('call', 'reply', 'event', 1),
      id: fc.oneof(fc.nat(), fc.constantFrom(-1, 1.5, 2 ** 60, '1', null)),
      name: fc.oneof(fc.constantFrom(...CALL_NAMES), fc.string({ maxLength: 120 })),
      request: fc.jsonValue({ maxDepth: 3 }),
    })
    .map((m) => Buffer.from(JSON.stringify(m))),
  fc.jsonValue({ maxDepth: 2 }).map((v) => Buffer.from(JSON.stringify(v) ?? 'null')),
  fc.constantFrom(
    Buffer.from([0x7b, 0xff, 0xfe, 0x7d]),
    Buffer.from([0xc0, 0xaf]),
    Buffer.from([0xed, 0xa0, 0x80]),
    Buffer.from('{"t":"call"'),
    Buffer.alloc(0),
  ),
  fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
);

const closePayload = fc.oneof(
  fc.constant(Buffer.alloc(0)),
  fc.constant(Buffer.from([0x03])),
  fc
    .tuple(
      fc.constantFrom(1000, 1001, 1005, 1006, 999, 1015, 2999, 3000, 4999, 5000, 65535),
      fc.uint8Array({ maxLength: 20 }),
    )
    .map(([code, reason]) => Buffer.concat([Buffer.from([code >> 8, code & 0xff]), Buffer.from(reason)])),
);

export const frameArb: fc.Arbitrary<FrameSpec> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      fin: fc.nat({ max: 7 }).map((n) => n > 0),
      rsv: fc.nat({ max: 7 }).map((n) => (n < 6 ? 0 : n)),
      opcode: fc.constantFrom(0x1, 0x1, 0x1, 0x2, 0x0),
      masked: fc.nat({ max: 9 }).map((n) => n > 0),
      payload: textPayload,
      length: fc.constantFrom('exact', 'exact', 'exact', 'exact', 'more', 'huge', 'over-limit'),
    }) as fc.Arbitrary<FrameSpec>,
  },
  {
    weight: 2,
    arbitrary: fc.record({
      fin: fc.boolean(),
      rsv: fc.constant(0),
      opcode: fc.constantFrom(0x8, 0x9, 0xa),
      masked: fc.constant(true),
      payload: fc.oneof(
        closePayload,
        fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)),
      ),
      length: fc.constant('exact'),
    }) as fc.Arbitrary<FrameSpec>,
  },
  {
    weight: 1,
    arbitrary: fc.record({
      fin: fc.boolean(),
      rsv: fc.nat({ max: 7 }),
      opcode: fc.constantFrom(0x3, 0x7, 0xb, 0xf),
      masked: fc.boolean(),
      payload: fc.uint8Array({ maxLength: 50 }).map((a) => Buffer.from(a)),
      length: fc.constant('exact'),
    }) as fc.Arbitrary<FrameSpec>,
  },
);

/** A few frames in a row; once a frame's length lies, nothing after it can be framed. */
export const framesArb = fc.array(frameArb, { minLength: 1, maxLength: 5 }).map((frames) => {
  const parts: Buffer[] = [];
  let openEnded = false;
  for (const f of frames) {
    const e = encodeFrame(f);
    parts.push(e.bytes);
    if (e.openEnded) {
      openEnded = true;
      break;
    }
  }
  return { frames: Buffer.concat(parts), openEnded };
});
