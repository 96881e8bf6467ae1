import {
  KB_UNDO_WINDOW_MS,
  type KbBotView,
  type KbEntryView,
  type KbSnapshot,
} from '../../../src-shared/contract/kb';
import { type AppError, appError, err, ok, type Result } from '../../../src-shared/errors';
import type { Db } from '../../shared-node/sqlite';
import type { SecretStore } from '../secrets/keychain';
import { type Clock, realClock, steadyWall } from '../service/clock';
import { budgetFor as sharedBudgetFor } from '../service/request-budget';
import type { KbBudget } from './api-client';
import { type Bot, createBotRegistry } from './bots';
import { createEntryStore, type LocalEntry, type Resolution } from './entries';
import { ensureSandboxBot } from './sandbox-bot';
import { createKbSync } from './sync';

export interface SigningSecrets {
  has(botId: number): boolean;
  set(botId: number, secret: string): void;
  remove(botId: number): void;
}

export interface KbServiceOptions {
  db: Db;
  secrets: SecretStore;
  signing: SigningSecrets;
  onSnapshot: (snapshot: KbSnapshot) => void;
  onBots?: (bots: KbBotView[]) => void;
  budgetFor?: (baseUrl: string) => KbBudget;
  /** A bot and its local entries are gone (the leads side forgets what belongs to it). */
  onBotRemoved?: (bot: Bot) => void;
  /** How long a delete waits for an undo before it is sent (tests use 0). */
  undoMs?: number;
  intervalMs?: number;
  debounceMs?: number;
  timeoutMs?: number;
  /** The wall and monotonic clocks (real ones by default): undo holds and retries run on a steady time of them. */
  clock?: Pick<Clock, 'now' | 'monotonic'>;
}

const entryView = (e: LocalEntry, toWall: (t: number) => number): KbEntryView => ({
  id: e.id,
  botId: e.botId,
  remoteId: e.remoteId,
  title: e.title,
  description: e.description,
  sortOrder: e.sortOrder,
  state: e.state,
  deleted: e.deleted,
  pendingOp: e.pendingOp,
  error: e.error,
  theirs: e.theirs,
  baseUpdatedAt: e.baseUpdatedAt,
  editedAt: e.editedAt,
  // Stored on the steady time; the renderer counts it down against the wall clock.
  undoUntil: e.undoUntil === null ? null : toWall(e.undoUntil),
});

/** The knowledge-entry side of the core: bots, the local-first entries and their sync. */
export function createKbService(o: KbServiceOptions) {
  const undoMs = o.undoMs ?? KB_UNDO_WINDOW_MS;
  const clock = o.clock ?? realClock;
  // The undo holds' one time, shared with the sync that compares them (kb/sync.ts).
  const steady = steadyWall(clock);
  const toEntryView = (e: LocalEntry) => entryView(e, steady.toWall);
  const bots = createBotRegistry(o.db, o.secrets);
  const entries = createEntryStore(o.db);
  const sync = createKbSync({
    bots,
    entries,
    budgetFor: o.budgetFor ?? ((url) => sharedBudgetFor(url, 'kb')),
    onChange: (botId) => publish(botId),
    ...(o.intervalMs !== undefined ? { intervalMs: o.intervalMs } : {}),
    ...(o.debounceMs !== undefined ? { debounceMs: o.debounceMs } : {}),
    ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
    clock,
    steady,
  });

  const safe = <T>(read: () => T, fallback: T): T => {
    try {
      return read();
    } catch {
      return fallback;
    }
  };

  function botView(bot: Bot): KbBotView {
    const s = sync.status(bot.localId);
    const state = s.syncing ? 'syncing' : s.online === false ? 'offline' : s.error ? 'error' : 'idle';
    return {
      id: bot.localId,
      name: bot.name,
      baseUrl: bot.baseUrl,
      remoteBotId: bot.remoteBotId,
      isSandbox: bot.isSandbox,
      hasToken: safe(() => bots.token(bot.localId) !== null, false),
      hasSigningSecret: safe(() => o.signing.has(bot.localId), false),
      sync: { state, lastSyncAt: s.lastSyncAt, error: s.error, nextAttemptAt: s.nextAttemptAt },
      counts: entries.counts(bot.localId),
    };
  }

  function snapshot(botId: number): Result<KbSnapshot> {
    const bot = bots.get(botId);
    if (!bot) return err(noBot(botId));
    return ok({ bot: botView(bot), entries: entries.list(botId).map((e) => toEntryView(e)) });
  }

  function publish(botId: number): void {
    const s = snapshot(botId);
    if (s.ok) o.onSnapshot(s.value);
  }

  const publishBots = () => o.onBots?.(bots.list().map(botView));

  /** An edit is stored: show it, and send it soon. */
  function edited<T extends LocalEntry | null>(botId: number, r: Result<T>): Result<T> {
    if (r.ok) {
      publish(botId);
      sync.nudge(botId);
    }
    return r;
  }

  const botOfEntry = (entryId: number): number | null => entries.get(entryId)?.botId ?? null;

  /**
   * Removes a bot and everything of it here: its entries and outbox (cascade), its token and
   * signing secret in the keychain, its sync timers. What the server holds is not touched.
   */
  function forgetBot(botId: number): void {
    const bot = bots.get(botId);
    if (!bot) return;
    sync.forget(botId);
    try {
      bots.remove(botId);
      o.signing.remove(botId);
    } catch {
      // The row is gone; a locked keychain keeps an orphan secret under an id never given again.
    }
    o.onBotRemoved?.(bot);
  }

  return {
    bots: () => bots.list().map(botView),
    bot: (botId: number) => bots.get(botId),
    snapshot,
    addBot(input: {
      name: string;
      baseUrl: string;
      token: string;
      remoteBotId?: number | null;
      signingSecret?: string;
    }): Result<KbBotView> {
      const url = checkUrl(input.baseUrl);
      if (!url.ok) return url;
      const bot = bots.add({ ...input, baseUrl: url.value });
      if (input.signingSecret) o.signing.set(bot.localId, input.signingSecret);
      publishBots();
      void sync.syncBot(bot.localId);
      return ok(botView(bot));
    },
    updateBot(input: {
      botId: number;
      name?: string;
      baseUrl?: string;
      token?: string;
      remoteBotId?: number | null;
      signingSecret?: string;
    }): Result<KbBotView> {
      const bot = bots.get(input.botId);
      if (!bot) return err(noBot(input.botId));
      let baseUrl: string | undefined;
      if (input.baseUrl !== undefined) {
        const url = checkUrl(input.baseUrl);
        if (!url.ok) return url;
        baseUrl = url.value;
      }
      bots.update(bot.localId, {
        ...(baseUrl ? { baseUrl } : {}),
        ...(input.name ? { name: input.name } : {}),
        ...(input.remoteBotId !== undefined ? { remoteBotId: input.remoteBotId } : {}),
      });
      if (input.token) bots.setToken(bot.localId, input.token);
      if (input.signingSecret) o.signing.set(bot.localId, input.signingSecret);
      publishBots();
      if (input.token || baseUrl) void sync.syncBot(bot.localId);
      return ok(botView(bots.get(bot.localId)!));
    },
    removeBot(botId: number): Result<true> {
      if (!bots.get(botId)) return err(noBot(botId));
      forgetBot(botId);
      publishBots();
      return ok(true);
    },
    /** The sandbox was left for a real account: its demo bot goes with it (entries, outbox, secrets). */
    removeSandboxBots(): number {
      const gone = bots.list().filter((b) => b.isSandbox);
      for (const b of gone) forgetBot(b.localId);
      if (gone.length > 0) publishBots();
      return gone.length;
    },
    create(botId: number, fields: { title: string; description: string }): Result<KbEntryView> {
      if (!bots.get(botId)) return err(noBot(botId));
      const r = edited(botId, entries.create(botId, fields));
      return r.ok ? ok(toEntryView(r.value)) : r;
    },
    edit(entryId: number, fields: { title: string; description: string }): Result<KbEntryView> {
      const botId = botOfEntry(entryId);
      const r = entries.edit(entryId, fields);
      if (botId !== null) edited(botId, r);
      return r.ok ? ok(toEntryView(r.value)) : r;
    },
    /** Deleted here at once; sent after the undo window unless `restore` comes first. */
    remove(entryId: number): Result<KbEntryView> {
      const botId = botOfEntry(entryId);
      const r = entries.remove(entryId, steady.now() + undoMs);
      if (botId !== null) edited(botId, r);
      return r.ok ? ok(toEntryView(r.value)) : r;
    },
    restore(entryId: number): Result<KbEntryView> {
      const botId = botOfEntry(entryId);
      const r = entries.restore(entryId);
      if (botId !== null) edited(botId, r);
      return r.ok ? ok(toEntryView(r.value)) : r;
    },
    resolve(entryId: number, resolution: Resolution): Result<KbEntryView | null> {
      const botId = botOfEntry(entryId);
      const r = entries.resolve(entryId, resolution);
      if (botId !== null) edited(botId, r);
      return r.ok ? ok(r.value ? toEntryView(r.value) : null) : r;
    },
    retry(entryId: number): Result<KbEntryView> {
      const botId = botOfEntry(entryId);
      const r = entries.retry(entryId);
      if (botId !== null) edited(botId, r);
      return r.ok ? ok(toEntryView(r.value)) : r;
    },
    /** Resolves when the round(s) ended; the outcome is in each bot's sync status. */
    async syncNow(botId?: number): Promise<Result<true>> {
      if (botId !== undefined) {
        if (!bots.get(botId)) return err(noBot(botId));
        await sync.syncBot(botId);
      } else await sync.syncAll();
      return ok(true);
    },
    async setUpSandbox(s: {
      baseUrl: string;
      adminToken: string;
      webhookUrl: string | null;
    }): Promise<Result<number>> {
      const r = await ensureSandboxBot({
        bots,
        removeBot: forgetBot,
        setSigningSecret: (id, secret) => o.signing.set(id, secret),
        hasSigningSecret: (id) => o.signing.has(id),
        ...s,
      });
      publishBots();
      if (r.ok) void sync.syncBot(r.value);
      return r;
    },
    start: () => sync.start(),
    stop: () => sync.stop(),
    /** For tests and the CLI: the pending operations of a bot, in order. */
    outbox: (botId: number) => entries.outbox(botId),
  };
}

export type KbService = ReturnType<typeof createKbService>;

const noBot = (botId: number): AppError => appError('KB-NO-BOT', `There is no bot ${botId} in this app.`);

function checkUrl(text: string): Result<string> {
  try {
    const url = new URL(text.trim());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
    if (url.username || url.password || url.search || url.hash) throw new Error('extra');
    return ok(`${url.origin}${url.pathname.replace(/\/+$/, '')}`);
  } catch {
    return err(
      appError('KB-BASE-URL-INVALID', `"${text}" is not a service address such as https://bots.example.com`),
    );
  }
}
