import { z } from 'zod';
import { command, Empty } from './define';

/** Which service the app talks to: the embedded sandbox, a real account, or none yet (first run). */
export const SessionSchema = z.object({
  kind: z.enum(['none', 'sandbox', 'account']),
  baseUrl: z.string().nullable(),
  /** Where the key came from; the key itself never crosses the contract. */
  keySource: z.enum(['env', 'keychain', 'sandbox']).nullable(),
  accountName: z.string().nullable(),
});
export type Session = z.infer<typeof SessionSchema>;

export const ConnectRequestSchema = z.object({
  baseUrl: z
    .string()
    .trim()
    .url('The base URL must be a full address such as https://files.example.com')
    .refine((u) => /^https?:\/\//i.test(u), 'The base URL must start with http:// or https://'),
  apiKey: z.string().trim().min(8, 'The API key looks too short: paste the whole key'),
  /**
   * The person confirmed sending the key over plain http:// to a host that is not this computer
   * (without it such an address is refused with PLAIN-HTTP, before anything is sent).
   */
  allowPlainHttp: z.boolean().optional(),
});

export const sessionCommands = {
  'session.get': command(Empty, SessionSchema),
  /** Starts the embedded reference server with its demo account. */
  'session.useSandbox': command(Empty, SessionSchema),
  /** Checks the key with GET /me, then stores it in the keychain. */
  'session.connect': command(ConnectRequestSchema, SessionSchema),
  /** Forgets the account (key removed from the keychain); folders stay. */
  'session.disconnect': command(Empty, SessionSchema),
} as const;

export const sessionEvents = {
  'session.changed': SessionSchema,
} as const;
