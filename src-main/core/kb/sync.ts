import type { KbEntry } from '../../../src-shared/api/knowledge';
import { KB_MAX_ENTRIES } from '../../../src-shared/domain/limits';
import { type AppError, appError } from '../../../src-shared/errors';
import { type Clock, realClock, type SteadyWall, steadyWall } from '../service/clock';
import { backoffDelayMs, KB_SYNC_BACKOFF } from '../service/retry-policy';
import { createKbClient, KB_ERRORS, type KbBudget, type KbClient } from './api-client';
import type { BotRegistry } from './bots';
import type { EntryStore, LocalEntry, OutboxRow } from './entries';

/** How a round ended, for the bot's status line and the next attempt. */
export type RoundOutcome =
  | { kind: 'done' }
  | { kind: 'retry'; error: AppError; retryAt: number }
  | { kind: 'stopped'; error: AppError };

/** A create refused at the limit: what happens next, in words a person can act on. */
function fullRefusal(e: AppError): AppError {
  return appError(
    e.code,
    `The bot already holds ${KB_MAX_ENTRIES} entries on the server (${e.message}). This entry is sent again by itself once a delete made here reaches the server; or delete an entry there and press "Retry as is".`,
  );
}

export interface BotSyncStatus {
  botId: number;
  syncing: boolean;
  /** False after a round could not reach the server; null before the first round. */
  online: boolean | null;
  lastSyncAt: string | null;
  error: AppError | null;
  nextAttemptAt: number | null;
}

export interface KbSyncOptions {
  bots: BotRegistry;
  entries: EntryStore;
  budgetFor: (baseUrl: string) => KbBudget;
  /** Called whenever entries or a bot's sync status changed. */
  onChange: (botId: number) => void;
  /** Refresh interval while nothing else triggers a round. */
  intervalMs?: number;
  /** Delay between a local edit and the round that sends it (edits typed in a burst go together). */
  debounceMs?: number;
  timeoutMs?: number;
  /**
   * The clocks: undo holds and retry times are kept on `steady` (a wall-clock time that never steps, shared
   * with the service that stamps the holds), shown on the wall clock. Real ones by default.
   */
  clock?: Pick<Clock, 'now' | 'monotonic'>;
  steady?: SteadyWall;
}

/** The server's copy differs from what the local edit was based on. */
function changedSince(entry: LocalEntry, server: KbEntry): boolean {
  if (server.updated_at !== entry.baseUpdatedAt) return true;
  return !!entry.base && (entry.base.title !== server.title || entry.base.description !== server.description);
}

/**
 * Sends each bot's outbox in order within the entry API's budget, then refreshes the mirror from
 * the server. One round per bot at a time; a request for a round during one runs another after it.
 * A round that cannot reach the server retries with growing delays, which is how a returning
 * network is noticed; the app may also call `syncNow` when the OS says the network is back.
 */
export function createKbSync(options: KbSyncOptions) {
  const intervalMs = options.intervalMs ?? 60_000;
  const debounceMs = options.debounceMs ?? 300;
  const clock = options.clock ?? realClock;
  // A retry time or an undo hold compared with the wall clock would wait out a step back (10 minutes more)
  // or end at once after a step forward; on the steady time neither moves.
  const steady = options.steady ?? steadyWall(clock);
  const running = new Map<number, Promise<RoundOutcome>>();
  const again = new Set<number>();
  const timers = new Map<number, NodeJS.Timeout>();
  const failures = new Map<number, number>();
  const status = new Map<number, BotSyncStatus>();
  let started = false;
  let closed = false;

  const statusOf = (botId: number): BotSyncStatus => {
    let s = status.get(botId);
    if (!s) {
      const bot = options.bots.get(botId);
      s = {
        botId,
        syncing: false,
        online: null,
        lastSyncAt: bot?.lastSyncAt ?? null,
        error: bot?.lastErrorCode ? { code: bot.lastErrorCode, message: bot.lastErrorMessage ?? '' } : null,
        nextAttemptAt: null,
      };
      status.set(botId, s);
    }
    return s;
  };

  function schedule(botId: number, delayMs: number): void {
    const existing = timers.get(botId);
    if (existing) clearTimeout(existing);
    if (!started || !options.bots.get(botId)) return;
    const timer = setTimeout(() => {
      timers.delete(botId);
      void syncBot(botId);
    }, delayMs);
    timer.unref();
    timers.set(botId, timer);
    statusOf(botId).nextAttemptAt = clock.now() + delayMs;
  }

  async function round(botId: number): Promise<RoundOutcome> {
    const bot = options.bots.get(botId);
    if (!bot) return { kind: 'stopped', error: appError('KB-NO-BOT', `Bot ${botId} is not configured.`) };
    // One instant for the whole round: a window that ends mid-round must not let a delete out after
    // the create behind it was already held back for it.
    const at = steady.now();
    // Needs no network: an entry the server never saw is gone once its undo window ended.
    if (options.entries.purgeLocalDeletes(botId, at) > 0) options.onChange(botId);
    let token: string | null;
    try {
      token = options.bots.token(botId);
    } catch (error) {
      return { kind: 'stopped', error: appError('KEYCHAIN-UNAVAILABLE', (error as Error).message) };
    }
    if (!token)
      return {
        kind: 'stopped',
        error: appError(
          'KB-NO-TOKEN',
          `No token is stored for "${bot.name}": paste it from the bot's KB API card.`,
        ),
      };
    const client = createKbClient({
      baseUrl: bot.baseUrl,
      token,
      budget: options.budgetFor(bot.baseUrl),
      now: steady.now,
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    });
    const listed = await client.list();
    if (!listed.ok) return failed(listed.error);
    options.entries.adoptOrphans(botId, listed.value);
    const server = new Map(listed.value.map((e) => [e.id, e]));
    // A create refused because the bot was full is released when one of our deletes goes out; the
    // second pass sends it in this same round.
    for (let pass = 0; pass < 2; pass++) {
      const ops = options.entries.outbox(botId);
      const heldSlots = heldDeletes(ops, server, at);
      let released = false;
      for (const op of ops) {
        // A delete inside its undo window still holds its slot: at the limit a create waits for it
        // instead of being refused (the round at the window's end sends both, delete first).
        if (isCreate(op) && heldSlots > 0 && server.size >= KB_MAX_ENTRIES) continue;
        const outcome = await send(client, op, server, botId, at);
        if (outcome) return outcome;
        if (op.op === 'delete' && !options.entries.get(op.entryId)) {
          released = options.entries.releaseRefusedCreates(botId) > 0 || released;
        }
      }
      if (!released) break;
      options.onChange(botId);
    }
    options.entries.applyServerList(botId, [...server.values()]);
    return { kind: 'done' };
  }

  const isCreate = (op: OutboxRow): boolean =>
    op.op === 'create' || (op.op === 'update' && options.entries.get(op.entryId)?.remoteId === null);

  /** Deletes still in their undo window of entries the server holds: slots not yet free there. */
  function heldDeletes(ops: OutboxRow[], server: Map<number, KbEntry>, at: number): number {
    return ops.filter((op) => {
      if (op.op !== 'delete' || op.notBefore === null || op.notBefore <= at) return false;
      const remoteId = options.entries.get(op.entryId)?.remoteId;
      return remoteId !== null && remoteId !== undefined && server.has(remoteId);
    }).length;
  }

  /** Sends one operation; returns an outcome only when the round must end. */
  async function send(
    client: KbClient,
    op: OutboxRow,
    server: Map<number, KbEntry>,
    botId: number,
    at: number,
  ): Promise<RoundOutcome | null> {
    const entry = options.entries.get(op.entryId);
    if (!entry || op.held || entry.state === 'conflict') return null;
    // Inside its undo window: a later round sends it (see `untilHold`).
    if (op.notBefore !== null && op.notBefore > at) return null;
    const remote = entry.remoteId === null ? undefined : server.get(entry.remoteId);
    if (op.op === 'delete') {
      // Gone on both sides: the editor and the server agree, nothing is lost.
      if (!remote) return settle(op, null, botId);
      if (changedSince(entry, remote)) return conflict(entry.id, remote, botId);
    } else if (op.op === 'update' && entry.remoteId !== null) {
      if (!remote) return conflict(entry.id, null, botId);
      if (changedSince(entry, remote)) return conflict(entry.id, remote, botId);
    }
    options.entries.markSending(op.seq, true);
    const fields = { title: op.title ?? entry.title, description: op.description ?? entry.description };
    let reply: Awaited<ReturnType<KbClient['create']>>;
    if (op.op === 'delete') {
      const r = await client.remove(entry.remoteId!);
      if (r.ok || r.error.code === KB_ERRORS.notFound) {
        if (entry.remoteId !== null) server.delete(entry.remoteId);
        return settle(op, null, botId);
      }
      reply = r;
    } else if (op.op === 'create' || entry.remoteId === null) {
      reply = await client.create(fields);
    } else {
      reply = await client.update(entry.remoteId, fields);
      if (!reply.ok && reply.error.code === KB_ERRORS.notFound) {
        server.delete(entry.remoteId);
        return conflict(entry.id, null, botId);
      }
    }
    if (reply.ok) {
      server.set(reply.value.id, reply.value);
      return settle(op, reply.value, botId);
    }
    const e = reply.error;
    if (e.code === KB_ERRORS.refused) {
      const full = isCreate(op) && server.size >= KB_MAX_ENTRIES;
      options.entries.markRefused(entry.id, full ? fullRefusal(e) : e);
      options.onChange(botId);
      return null;
    }
    // A create whose answer never came may have landed: it stays marked so the next round adopts it
    // from the list instead of creating it twice.
    const unknownOutcome =
      e.code === KB_ERRORS.network || e.code === KB_ERRORS.server || e.code === KB_ERRORS.badReply;
    if (!(op.op === 'create' && unknownOutcome)) options.entries.markSending(op.seq, false);
    return failed(e);
  }

  function settle(op: OutboxRow, reply: KbEntry | null, botId: number): null {
    options.entries.acknowledge(op, reply);
    options.onChange(botId);
    return null;
  }

  function conflict(entryId: number, theirs: KbEntry | null, botId: number): null {
    options.entries.markConflict(entryId, theirs);
    options.onChange(botId);
    return null;
  }

  /**
   * The next round comes no later than the end of the earliest undo window still running when the
   * round began (one that ended during the round is due at once).
   */
  function untilHold(botId: number, delayMs: number, roundAt: number): number {
    const hold = options.entries.nextHold(botId, roundAt);
    return hold === null ? delayMs : Math.min(delayMs, Math.max(0, hold - steady.now()) + 50);
  }

  /** `retryAt` stays on the steady time (the next round's wait); the error says it on the wall clock. */
  function failed(error: AppError): RoundOutcome {
    if (error.code === KB_ERRORS.unauthorized) return { kind: 'stopped', error };
    const retryAt = error.retryAt ?? 0;
    return {
      kind: 'retry',
      error: error.retryAt === undefined ? error : { ...error, retryAt: steady.toWall(error.retryAt) },
      retryAt,
    };
  }

  /**
   * A round never rejects: telling the app (`onChange`) or recording the round (the database busy) may
   * throw, and a round started by a timer has nobody to catch it, so Node would end the process. Such a
   * failure is the round's outcome (`KB-SYNC-FAILED`, shown in the bot's status) and the round is tried
   * again with backoff.
   */
  async function runRound(botId: number): Promise<RoundOutcome> {
    try {
      return await roundAndRecord(botId);
    } catch (error) {
      const outcome: RoundOutcome = {
        kind: 'retry',
        error: appError('KB-SYNC-FAILED', `Recording the sync failed: ${(error as Error).message}`),
        retryAt: 0,
      };
      try {
        const s = statusOf(botId);
        s.syncing = false;
        s.error = outcome.error;
        const n = (failures.get(botId) ?? 0) + 1;
        failures.set(botId, n);
        schedule(botId, backoffDelayMs(n, KB_SYNC_BACKOFF));
      } catch {
        // The bot cannot be read either: its next round comes with the next nudge or start.
      }
      return outcome;
    }
  }

  async function roundAndRecord(botId: number): Promise<RoundOutcome> {
    const s = statusOf(botId);
    s.syncing = true;
    options.onChange(botId);
    const roundAt = steady.now();
    let outcome: RoundOutcome;
    try {
      outcome = await round(botId);
    } catch (error) {
      outcome = {
        kind: 'retry',
        error: appError('KB-SYNC-FAILED', `Sync stopped unexpectedly: ${(error as Error).message}`),
        retryAt: 0,
      };
    }
    s.syncing = false;
    const at = new Date().toISOString();
    if (outcome.kind === 'done') {
      failures.delete(botId);
      s.online = true;
      s.lastSyncAt = at;
      s.error = null;
      options.bots.recordSync(botId, { at });
      schedule(botId, untilHold(botId, intervalMs, roundAt));
    } else if (outcome.kind === 'retry') {
      const n = (failures.get(botId) ?? 0) + 1;
      failures.set(botId, n);
      s.online = outcome.error.code !== KB_ERRORS.network ? s.online : false;
      s.error = outcome.error;
      const delay = untilHold(
        botId,
        backoffDelayMs(n, KB_SYNC_BACKOFF, outcome.retryAt - steady.now()),
        roundAt,
      );
      options.bots.recordSync(botId, {
        errorCode: outcome.error.code,
        errorMessage: outcome.error.message,
        nextAt: new Date(clock.now() + delay).toISOString(),
      });
      schedule(botId, delay);
    } else {
      s.error = outcome.error;
      s.nextAttemptAt = null;
      options.bots.recordSync(botId, { errorCode: outcome.error.code, errorMessage: outcome.error.message });
    }
    options.onChange(botId);
    return outcome;
  }

  /** Runs a round now (or right after the current one) and resolves with how it ended. */
  function syncBot(botId: number): Promise<RoundOutcome> {
    // After stop() the database may be closing: a round asked for late (a sandbox bot set up while the
    // app closes) must not start.
    if (closed)
      return Promise.resolve({ kind: 'stopped', error: appError('KB-STOPPED', 'Sync is stopped.') });
    const current = running.get(botId);
    if (current) {
      again.add(botId);
      return current.then(() => running.get(botId) ?? syncBot(botId));
    }
    const timer = timers.get(botId);
    if (timer) clearTimeout(timer);
    timers.delete(botId);
    const p = runRound(botId).finally(() => {
      running.delete(botId);
      if (again.delete(botId)) void syncBot(botId);
    });
    running.set(botId, p);
    return p;
  }

  return {
    syncBot,
    /** A local edit happened: send it soon, after a short pause for more typing. */
    nudge(botId: number): void {
      if (!started) return;
      if (running.has(botId)) again.add(botId);
      else schedule(botId, debounceMs);
    },
    /** Every bot, now: on demand and when the network comes back. */
    syncAll(): Promise<RoundOutcome[]> {
      return Promise.all(options.bots.list().map((b) => syncBot(b.localId)));
    },
    status: (botId: number): BotSyncStatus => ({ ...statusOf(botId) }),
    /** A removed bot: no more rounds, and no status left behind for a later bot to inherit. */
    forget(botId: number): void {
      const timer = timers.get(botId);
      if (timer) clearTimeout(timer);
      timers.delete(botId);
      again.delete(botId);
      failures.delete(botId);
      status.delete(botId);
    },
    start(): void {
      started = true;
      closed = false;
      for (const bot of options.bots.list()) schedule(bot.localId, 0);
    },
    async stop(): Promise<void> {
      started = false;
      closed = true;
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      again.clear();
      await Promise.allSettled([...running.values()]);
    },
  };
}

export type KbSync = ReturnType<typeof createKbSync>;
