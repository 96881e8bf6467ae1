import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/**
 * The office's messages: small JSON datagrams between desks (docs/office.md, "Messages"). They carry demand,
 * leases and liveness only: never a key, a file name or an account. Whatever arrives is checked here, and
 * anything that is not exactly one of these shapes (too large, not JSON, a field out of range, another
 * office, a wrong or missing MAC) is dropped as `null`: never an exception, never a crash.
 */
export const OFFICE_PROTOCOL = 'assets-sync-office';
/**
 * 2: the MAC moved out of the JSON (over the exact bytes sent) and every message carries its sender's counter
 * (`seq`). A desk of version 1 and one of version 2 do not hear each other.
 */
export const OFFICE_PROTOCOL_VERSION = 2;
/** A datagram larger than this is not ours. */
export const MAX_MESSAGE_BYTES = 4096;
/** At most this many desks in one office: more are ignored (a spoofer cannot make everyone's share tiny). */
export const MAX_PEERS = 32;

export const InstanceId = z.string().regex(/^[0-9a-f]{16}$/);
const Count = z.number().int().min(0).max(100_000);
const Ms = z.number().int().min(0).max(600_000);
/**
 * The highest term on the wire. Far below 2^53, so that one above any term taken is exact, and a holder's
 * term (election.ts `open`, capped here) is never one its receivers refuse. Honest terms grow by one per
 * election: 2^31 - 1 is never reached but by taking a hostile holder's term (election.ts).
 */
export const TERM_MAX = 2 ** 31 - 1;
const Term = z.number().int().min(0).max(TERM_MAX);
const PerMinute = z.number().min(0).max(10_000);
/** A person-readable label: printable, no control characters (it is shown in Settings). */
const Label = z
  .string()
  .max(64)
  .regex(/^[^\p{Cc}\p{Cf}]*$/u);

/** Requests a desk has waiting, by class: `now` (a fresh drop, what a person asked for), `sync`, `bg`. */
export const DemandSchema = z.strictObject({ now: Count, sync: Count, bg: Count });
export type Demand = z.infer<typeof DemandSchema>;
export const NO_DEMAND: Demand = { now: 0, sync: 0, bg: 0 };

const ShareSchema = z.strictObject({ id: InstanceId, share: PerMinute });

/** What the holder tells everyone with its heartbeat. */
const OfficeStateSchema = z.strictObject({
  ceiling: PerMinute,
  desks: z.number().int().min(1).max(MAX_PEERS),
  pauseMs: Ms,
  shares: z.array(ShareSchema).max(MAX_PEERS),
});
export type OfficeState = z.infer<typeof OfficeStateSchema>;

const Hash16 = z.string().regex(/^[0-9a-f]{16}$/);
/** One account's page-1 answer as a desk last read it (`ageMs`: how long before sending). */
export const WatchWordSchema = z.strictObject({
  acct: Hash16,
  total: z.number().int().min(0).max(1_000_000_000),
  newest: Hash16.nullable(),
  ageMs: Ms,
});
export type WatchWord = z.infer<typeof WatchWordSchema>;

/** The hash a desk says for an account or an id: 16 hex digits of sha256, so peers compare, never read. */
export function watchHash(...parts: string[]): string {
  return createHash('sha256')
    .update(`assets-sync watch\n${parts.join('\n')}`)
    .digest('hex')
    .slice(0, 16);
}

/**
 * `seq`: the sender's counter, one up per datagram from its start (its instance id is new at each start: the
 * id is the per-boot nonce). A keyed desk drops a datagram whose counter is not above the last it took from
 * that sender (a replay, or reordered); an open one drops one it already took (desk.ts `createReplayGuard`).
 */
const base = { from: InstanceId, term: Term, seq: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER) };

export const MessageSchema = z.discriminatedUnion('t', [
  /** Every second, to every peer: who I am, what I want, whom I follow (and, from the holder, the office). */
  z.strictObject({
    t: z.literal('hb'),
    ...base,
    start: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    /** How long this desk has been up (ms, its monotonic clock): peers place its start on their own clocks. */
    up: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    name: Label,
    ver: Label,
    demand: DemandSchema,
    /**
     * Requests this desk sent in the last 60 s, each counted from its answer, and the places it holds unused (a
     * new holder starts its window from these; a holder counts them beyond its own places).
     */
    used: Count,
    holder: InstanceId.nullable(),
    office: OfficeStateSchema.optional(),
  }),
  /** To the holder: places wanted now (`held`: unused places of earlier leases). */
  z.strictObject({ t: z.literal('ask'), ...base, demand: DemandSchema, held: Count }),
  /** From the holder: `n` places, each to be used within `ttlMs` or lost; `probe`: the one request of a pause. */
  z.strictObject({
    t: z.literal('grant'),
    ...base,
    to: InstanceId,
    n: z.number().int().min(0).max(64),
    ttlMs: Ms,
    probe: z.boolean(),
    share: PerMinute,
    ceiling: PerMinute,
    desks: z.number().int().min(1).max(MAX_PEERS),
    pauseMs: Ms,
  }),
  /** To the holder: a 429 (with its Retry-After, or null), or a probe answered without one. */
  z.strictObject({ t: z.literal('limited'), ...base, retryAfterMs: Ms.nullable(), probe: z.boolean() }),
  z.strictObject({ t: z.literal('probed'), ...base }),
  /**
   * Every second, from a desk that keeps an account's index (docs/remote-index.md, "An office shares the
   * watch"): per account, a hash of (service, client id) and its last page-1 answer (the listing's total, a
   * hash of its newest id, how long ago it was read). Never a key, a name or an id in clear. Advice only.
   */
  z.strictObject({ t: z.literal('watch'), ...base, w: z.array(WatchWordSchema).min(1).max(8) }),
  /** Leaving: my share goes back to the others now. */
  z.strictObject({ t: z.literal('bye'), ...base }),
]);
export type Message = z.infer<typeof MessageSchema>;
export type MessageOf<T extends Message['t']> = Extract<Message, { t: T }>;

/** Who shares an address: the office's name (optional) and the service's address, hashed. */
export function officeScope(officeName: string, serviceOrigin: string): string {
  return createHash('sha256')
    .update(`${officeName.trim().toLowerCase()}\n${serviceOrigin}`)
    .digest('hex')
    .slice(0, 16);
}

/** The key that signs messages, derived from the office key (never the key itself on the wire). */
export function macKey(officeKey: string): Buffer {
  return createHash('sha256').update(`assets-sync office mac\n${officeKey}`).digest();
}

const EnvelopeSchema = z.looseObject({
  p: z.literal(OFFICE_PROTOCOL),
  v: z.literal(OFFICE_PROTOCOL_VERSION),
  scope: z.string().regex(/^[0-9a-f]{16}$/),
});

/** A keyed datagram: the JSON, a newline, and the 64 hex digits of the HMAC of exactly those JSON bytes. */
const MAC_TRAILER = 65;

function mac(key: Buffer, body: Buffer): Buffer {
  return createHmac('sha256', key).update(body).digest();
}

export function encodeMessage(m: Message, scope: string, key: Buffer | null): Buffer {
  const body = Buffer.from(JSON.stringify({ p: OFFICE_PROTOCOL, v: OFFICE_PROTOCOL_VERSION, scope, ...m }));
  if (!key) return body;
  // The MAC covers the bytes as sent, and sits outside them: nothing can be appended after it, or parsed
  // before it is checked (version 1 signed the JSON text without it, and fields appended after the MAC
  // overrode the signed ones).
  return Buffer.concat([body, Buffer.from(`\n${mac(key, body).toString('hex')}`)]);
}

/**
 * Why a datagram was dropped: `another-office` (another scope: a neighbour office, not a stranger), or what
 * was wrong with it. Only `another-office` is not counted as refused (desk.ts).
 */
export type DropReason =
  | 'another-office'
  | 'malformed'
  | 'unsigned'
  | 'bad-mac'
  | 'signed-in-open-office'
  | 'replayed'
  | 'not-from-peer';

export type Decoded = { ok: true; m: Message } | { ok: false; why: DropReason };

const HEX64 = /^[0-9a-f]{64}$/;

/** The message in `data` or why it is not one of this office's (never an exception). */
export function decodeDatagram(data: Buffer, scope: string, key: Buffer | null): Decoded {
  if (data.length === 0 || data.length > MAX_MESSAGE_BYTES) return { ok: false, why: 'malformed' };
  let body = data;
  const trailer = data.length > MAC_TRAILER ? data.subarray(data.length - MAC_TRAILER) : null;
  const signed =
    trailer !== null && trailer[0] === 0x0a && HEX64.test(trailer.subarray(1).toString('latin1'));
  if (key) {
    if (!signed) return { ok: false, why: 'unsigned' };
    body = data.subarray(0, data.length - MAC_TRAILER);
    const given = Buffer.from(trailer.subarray(1).toString('latin1'), 'hex');
    // Checked before anything of the body is parsed.
    if (!timingSafeEqual(mac(key, body), given)) return { ok: false, why: 'bad-mac' };
  } else if (signed) return { ok: false, why: 'signed-in-open-office' };
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return { ok: false, why: 'malformed' };
  }
  const envelope = EnvelopeSchema.safeParse(json);
  if (!envelope.success) return { ok: false, why: 'malformed' };
  if (envelope.data.scope !== scope) return { ok: false, why: 'another-office' };
  const { p: _p, v: _v, scope: _s, ...rest } = envelope.data;
  const parsed = MessageSchema.safeParse(rest);
  return parsed.success ? { ok: true, m: parsed.data } : { ok: false, why: 'malformed' };
}

/** The message in `data`, or null when it is not a well-formed message of this office. */
export function decodeMessage(data: Buffer, scope: string, key: Buffer | null): Message | null {
  const d = decodeDatagram(data, scope, key);
  return d.ok ? d.m : null;
}
