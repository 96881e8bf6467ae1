import { z } from 'zod';
import { command, Empty } from './define';

/** One desk the office view lists (this one included): no key, no account, no file names. */
export const OfficePeerSchema = z.object({
  id: z.string(),
  name: z.string(),
  version: z.string(),
  /** Requests a minute the holder gives this desk now. */
  share: z.number(),
  /** Requests waiting at that desk. */
  backlog: z.number().int(),
  holder: z.boolean(),
  self: z.boolean(),
});
export type OfficePeer = z.infer<typeof OfficePeerSchema>;

/** How one discovery path fares on this machine. */
export const OfficeDiscoverySchema = z.object({
  name: z.enum(['mdns', 'local', 'manual']),
  state: z.enum(['on', 'unavailable', 'starting']),
  detail: z.string().nullable(),
});

/**
 * This desk in the office (docs/office.md): `off` (the user left it: a desk alone), `alone` (no peer
 * found), `office` (sharing the address with `desks - 1` others). `sharePerMinute` is what this desk may
 * send a minute now (the ETA counts with it); `pausedForMs` > 0 while the whole address waits on a probe.
 */
export const OfficeStatusSchema = z.object({
  mode: z.enum(['off', 'alone', 'office']),
  desks: z.number().int().min(1),
  sharePerMinute: z.number(),
  ceiling: z.number(),
  holder: z.enum(['self', 'peer']).nullable(),
  pausedForMs: z.number(),
  port: z.number().int().nullable(),
  officeName: z.string(),
  peers: z.array(OfficePeerSchema),
  discovery: z.array(OfficeDiscoverySchema),
  /** true: only desks with this office's key take part; false: an open office (docs/office.md, threat model). */
  keyed: z.boolean(),
  /**
   * Datagrams this desk dropped (no key or a wrong one, tampered, replayed, malformed, a `bye` or grant not
   * from the desk it names), and the addresses of the latest.
   */
  refused: z.object({
    total: z.number().int().min(0),
    from: z.array(z.object({ address: z.string(), count: z.number().int().min(0), why: z.string() })).max(16),
  }),
});
export type OfficeStatus = z.infer<typeof OfficeStatusSchema>;

/** The office's settings (the key itself lives in the keychain: `hasKey` says whether one is set). */
export const OfficeSettingsSchema = z.object({
  /** false: this desk leaves the office and plans alone (still lowering its rate on 429s). */
  enabled: z.boolean(),
  /** Desks with the same name form one office; '' for every desk on the link. */
  name: z.string().max(64),
  /** host:port of desks that multicast does not reach. */
  peers: z.array(z.string().max(255)).max(32),
  hasKey: z.boolean(),
});
export type OfficeSettings = z.infer<typeof OfficeSettingsSchema>;

export const officeCommands = {
  'office.status': command(Empty, OfficeStatusSchema.nullable()),
  'office.settings': command(Empty, OfficeSettingsSchema),
  /** `key`: a new office key ('' removes it); the key is never read back. */
  'office.update': command(
    OfficeSettingsSchema.omit({ hasKey: true })
      .partial()
      .extend({ key: z.string().max(256).optional() })
      .strict(),
    OfficeSettingsSchema,
  ),
  /**
   * The office's join code (its key, to give to the other desks of the office), read back on request; `make`:
   * a new random one first (every desk must then be given it). `fromEnv`: ASSETS_OFFICE_KEY sets it.
   */
  'office.joinCode': command(
    z.strictObject({ make: z.boolean().optional() }),
    z.object({ code: z.string().nullable(), fromEnv: z.boolean() }),
  ),
} as const;

export const officeEvents = {
  'office.changed': OfficeStatusSchema,
} as const;
