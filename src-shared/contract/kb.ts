import { z } from 'zod';
import { AppErrorSchema, command, Done, Empty } from './define';

/** Knowledge entries: bots, their entries mirrored locally, the outbox's state, conflicts. */

/**
 * How long a deleted entry can be brought back: its delete waits this long in the outbox before it
 * is sent (the editor shows Undo for as long).
 */
export const KB_UNDO_WINDOW_MS = 6_000;

export const EntryStateSchema = z.enum(['synced', 'pending', 'conflict', 'error']);
export type EntryStateView = z.infer<typeof EntryStateSchema>;

export const KbEntryViewSchema = z.object({
  id: z.number().int(),
  botId: z.number().int(),
  remoteId: z.number().int().nullable(),
  title: z.string(),
  description: z.string(),
  sortOrder: z.number().int().nullable(),
  state: EntryStateSchema,
  /** Deleted here, not yet on the server. */
  deleted: z.boolean(),
  pendingOp: z.enum(['create', 'update', 'delete']).nullable(),
  /** Why the server refused it (its 422 text), when state is `error`. */
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  /** The server's copy, when state is `conflict`; `deleted` when it was deleted there. */
  theirs: z
    .object({
      title: z.string(),
      description: z.string(),
      updatedAt: z.string().nullable(),
      deleted: z.boolean(),
    })
    .nullable(),
  baseUpdatedAt: z.string().nullable(),
  editedAt: z.string(),
  /** Epoch ms until which a delete is held for an undo (`kb.restore`); null otherwise. */
  undoUntil: z.number().nullable(),
});
export type KbEntryView = z.infer<typeof KbEntryViewSchema>;

export const BotSyncSchema = z.object({
  state: z.enum(['idle', 'syncing', 'offline', 'error']),
  lastSyncAt: z.string().nullable(),
  error: AppErrorSchema.nullable(),
  /** Epoch ms of the next automatic round, when one is scheduled. */
  nextAttemptAt: z.number().nullable(),
});

export const KbBotViewSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  baseUrl: z.string(),
  remoteBotId: z.number().int().nullable(),
  isSandbox: z.boolean(),
  hasToken: z.boolean(),
  hasSigningSecret: z.boolean(),
  sync: BotSyncSchema,
  counts: z.object({
    total: z.number().int(),
    pending: z.number().int(),
    conflict: z.number().int(),
    error: z.number().int(),
    /** Operations in the outbox, not yet accepted by the server (lost if the bot is removed). */
    unsent: z.number().int(),
  }),
});
export type KbBotView = z.infer<typeof KbBotViewSchema>;

export const KbSnapshotSchema = z.object({ bot: KbBotViewSchema, entries: z.array(KbEntryViewSchema) });
export type KbSnapshot = z.infer<typeof KbSnapshotSchema>;

const BotId = z.object({ botId: z.number().int().positive() });
const EntryId = z.object({ entryId: z.number().int().positive() });
const Fields = z.object({ title: z.string().max(10_000), description: z.string().max(100_000) });
const Secret = z.string().trim().min(1).max(4096);

export const kbCommands = {
  'kb.bots': command(Empty, z.object({ bots: z.array(KbBotViewSchema) })),
  'kb.addBot': command(
    z
      .object({
        name: z.string().trim().min(1).max(200),
        baseUrl: z.string().trim().min(1).max(2000),
        token: Secret,
        remoteBotId: z.number().int().positive().nullable().optional(),
        signingSecret: Secret.optional(),
      })
      .strict(),
    KbBotViewSchema,
  ),
  'kb.updateBot': command(
    BotId.extend({
      name: z.string().trim().min(1).max(200).optional(),
      baseUrl: z.string().trim().min(1).max(2000).optional(),
      token: Secret.optional(),
      remoteBotId: z.number().int().positive().nullable().optional(),
      signingSecret: Secret.optional(),
    }).strict(),
    KbBotViewSchema,
  ),
  'kb.removeBot': command(BotId.strict(), Done),
  'kb.entries': command(BotId.strict(), KbSnapshotSchema),
  'kb.create': command(BotId.extend(Fields.shape).strict(), KbEntryViewSchema),
  'kb.edit': command(EntryId.extend(Fields.shape).strict(), KbEntryViewSchema),
  'kb.delete': command(EntryId.strict(), z.object({ entry: KbEntryViewSchema.nullable() })),
  /** Undoes a delete not yet sent (within the undo window, or later while it still waits). */
  'kb.restore': command(EntryId.strict(), KbEntryViewSchema),
  'kb.resolve': command(
    z.union([
      EntryId.extend({ keep: z.enum(['mine', 'theirs']) }).strict(),
      EntryId.extend({ merge: Fields }).strict(),
    ]),
    z.object({ entry: KbEntryViewSchema.nullable() }),
  ),
  'kb.retry': command(EntryId.strict(), KbEntryViewSchema),
  /** Runs a round for one bot, or every bot, now (also what the UI sends when the network returns). */
  'kb.syncNow': command(z.object({ botId: z.number().int().positive().optional() }).strict(), Done),
} as const;

export const kbEvents = {
  /** A bot's entries or sync status changed: the whole snapshot (a bot holds at most 20 entries). */
  'kb.changed': KbSnapshotSchema,
  'kb.botsChanged': z.object({ bots: z.array(KbBotViewSchema) }),
} as const;
