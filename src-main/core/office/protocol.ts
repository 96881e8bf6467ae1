import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/**
 * The office's messages: small JSON datagrams between desks (docs/office.md, "Messages"). They carry demand,
 * leases and liveness only: never a key, a file name or an account. Whatever arrives is checked here, and
 * anything that is not exactly one of these shapes (too large, not JSON, a field out of range, another
 * office, a wrong or missing MAC) is dropped as `null`: never an exception, never a crash.
 */
export const OFFICE_PROTOCOL = 'assets-sync-office';
export const OFFICE_PROTOCOL_VERSION = 1;
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

const base = { from: InstanceId, term: Term };

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
  mac: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
});

function mac(key: Buffer, body: string): string {
  return createHmac('sha256', key).update(body).digest('hex');
}

export function encodeMessage(m: Message, scope: string, key: Buffer | null): Buffer {
  const body = JSON.stringify({ p: OFFICE_PROTOCOL, v: OFFICE_PROTOCOL_VERSION, scope, ...m });
  if (!key) return Buffer.from(body);
  // The MAC covers the JSON text without it, appended as the last field.
  return Buffer.from(`${body.slice(0, -1)},"mac":"${mac(key, body)}"}`);
}

/** The message in `data`, or null when it is not a well-formed message of this office. */
export function decodeMessage(data: Buffer, scope: string, key: Buffer | null): Message | null {
  if (data.length === 0 || data.length > MAX_MESSAGE_BYTES) return null;
  const text = data.toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const envelope = EnvelopeSchema.safeParse(json);
  if (!envelope.success || envelope.data.scope !== scope) return null;
  const { p: _p, v: _v, scope: _s, mac: given, ...rest } = envelope.data;
  if (key) {
    if (!given) return null;
    const at = text.lastIndexOf(',"mac":"');
    if (at < 0) return null;
    const expected = Buffer.from(mac(key, `${text.slice(0, at)}}`), 'hex');
    if (!timingSafeEqual(expected, Buffer.from(given, 'hex'))) return null;
  } else if (given !== undefined) return null;
  const parsed = MessageSchema.safeParse(rest);
  return parsed.success ? parsed.data : null;
}
