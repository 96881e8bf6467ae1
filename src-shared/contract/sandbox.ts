import { z } from 'zod';
import { command, Empty } from './define';

/**
 * The Sandbox panel: steers the embedded sandbox (the reference server) through its admin surface.
 * The core makes every admin call; its token never appears in a request, reply or event here.
 * Every command answers NOT-SANDBOX while the app is connected to a real account.
 */

export const SandboxFaultsSchema = z.object({
  /** Share of uploads the store refuses (502 STORAGE-FAILED), 0 to 1. */
  storageFailRate: z.number().min(0).max(1),
  /** Share of uploads whose connection is dropped mid-request, 0 to 1. */
  connectionResetRate: z.number().min(0).max(1),
});
export type SandboxFaults = z.infer<typeof SandboxFaultsSchema>;

/** The knowledge-entry API's test aids: taken offline, or answering 429 until a time. */
export const SandboxKbFaultsSchema = z.object({
  offline: z.boolean(),
  /** Epoch ms (the sandbox's clock) until which the entry API answers 429; null when it does not. */
  rateLimitedUntil: z.number().nullable(),
});
export type SandboxKbFaults = z.infer<typeof SandboxKbFaultsSchema>;

export const SandboxStateSchema = z.object({
  /** The sandbox service's clock: ISO 8601 UTC, and the API's IST form `YYYY-MM-DD HH:MM`. */
  clock: z.object({ now: z.string(), ist: z.string() }),
  faults: SandboxFaultsSchema,
  kb: SandboxKbFaultsSchema,
  /** Whether the demo bot is set up, so that a lead or a handoff can be raised. */
  demoBot: z.boolean(),
});
export type SandboxState = z.infer<typeof SandboxStateSchema>;

export const SandboxWalletSchema = z.object({
  balancePaise: z.number().int(),
  arrearsPaise: z.number().int(),
});

/** The clock moves by whole days: a day, a week and 31 days (past the 30-day grace) are offered. */
export const SANDBOX_ADVANCE_DAYS = [1, 7, 31] as const;

export const sandboxCommands = {
  'sandbox.state': command(Empty, SandboxStateSchema),
  /**
   * The sandbox's address and its file API key, for trying the API by hand (curl) beside the app
   * (issue 34: it was nowhere but in a socket). A key of the local sandbox only, never an account's;
   * the panel shows it on request. It is never logged: no transport logs a reply.
   */
  'sandbox.apiKey': command(Empty, z.object({ baseUrl: z.string(), apiKey: z.string() })),
  /** Moves the service clock; every midnight crossed is billed and every webhook retry due is sent. */
  'sandbox.advanceClock': command(
    z.object({ days: z.number().int().min(1).max(366) }).strict(),
    SandboxStateSchema,
  ),
  /** A top-up (pays arrears first), or a drain that empties the balance (never creates arrears). */
  'sandbox.wallet': command(
    z.union([
      z.object({ topUpPaise: z.number().int().min(1).max(100_000_000) }).strict(),
      z.object({ drain: z.literal(true) }).strict(),
    ]),
    SandboxWalletSchema,
  ),
  /** A visitor of the demo bot leaves a lead, or asks for a person; it arrives in Leads. */
  'sandbox.raiseLead': command(
    z.object({ event: z.enum(['LEAD-CAPTURED', 'HANDOFF-REQUESTED']) }).strict(),
    z.object({ conversationId: z.number().int(), name: z.string() }),
  ),
  /**
   * Upload faults; `rateLimitedSeconds`: the file API answers 429 for that long (0 ends it), so the app's
   * "asked us to slow down" period can be seen in Activity (issue 34).
   */
  'sandbox.faults': command(
    SandboxFaultsSchema.partial()
      .extend({ rateLimitedSeconds: z.number().int().min(0).max(3600).optional() })
      .strict(),
    SandboxFaultsSchema,
  ),
  /** The knowledge-entry API offline or back, or answering 429 for some seconds (0 ends it). */
  'sandbox.kbFaults': command(
    z
      .object({
        offline: z.boolean().optional(),
        rateLimitedSeconds: z.number().int().min(0).max(3600).optional(),
      })
      .strict(),
    SandboxKbFaultsSchema,
  ),
  /** An entry of the demo bot changed on the service, as another editor would: the next edit here conflicts. */
  'sandbox.changeEntry': command(
    z.object({ entryId: z.number().int().positive().optional() }).strict(),
    z.object({ title: z.string(), said: z.string() }),
  ),
  /** A live file of a watched folder deleted on the service, as another device would. */
  'sandbox.deleteFile': command(
    z.object({ fileId: z.number().int().positive().optional() }).strict(),
    z.object({ name: z.string(), said: z.string() }),
  ),
} as const;
