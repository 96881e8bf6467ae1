import type { Db } from '../../shared-node/sqlite';
import { statements } from '../../shared-node/statements';
import type { SecretStore } from '../secrets/keychain';

/** A bot whose entries the app edits. Its token is in the keychain, never in this row. */
export interface Bot {
  localId: number;
  baseUrl: string;
  remoteBotId: number | null;
  name: string;
  isSandbox: boolean;
  lastSyncAt: string | null;
  lastErrorCode: string | null;
  lastErrorMessage: string | null;
  nextSyncAt: string | null;
}

interface BotRow {
  local_id: number;
  base_url: string;
  remote_bot_id: number | null;
  name: string;
  is_sandbox: number;
  last_sync_at: string | null;
  last_error_code: string | null;
  last_error_message: string | null;
  next_sync_at: string | null;
}

export const botTokenAccount = (localId: number) => `bot-token:${localId}`;

const toBot = (r: BotRow): Bot => ({
  localId: r.local_id,
  baseUrl: r.base_url,
  remoteBotId: r.remote_bot_id,
  name: r.name,
  isSandbox: r.is_sandbox === 1,
  lastSyncAt: r.last_sync_at,
  lastErrorCode: r.last_error_code,
  lastErrorMessage: r.last_error_message,
  nextSyncAt: r.next_sync_at,
});

export interface NewBot {
  baseUrl: string;
  token: string;
  name: string;
  remoteBotId?: number | null;
  isSandbox?: boolean;
}

export function createBotRegistry(db: Db, secrets: SecretStore) {
  const prep = statements(db);
  const byId = prep('SELECT * FROM kb_bots WHERE local_id = ?');
  return {
    list(): Bot[] {
      return (prep('SELECT * FROM kb_bots ORDER BY local_id').all() as BotRow[]).map(toBot);
    },
    get(localId: number): Bot | null {
      const row = byId.get(localId) as BotRow | undefined;
      return row ? toBot(row) : null;
    },
    /** The row is written first so the keychain account can carry its id; a keychain failure undoes it. */
    add(bot: NewBot): Bot {
      const info = prep(
        'INSERT INTO kb_bots (base_url, remote_bot_id, name, is_sandbox, created_at) VALUES (?, ?, ?, ?, ?)',
      ).run(
        bot.baseUrl.replace(/\/+$/, ''),
        bot.remoteBotId ?? null,
        bot.name,
        bot.isSandbox ? 1 : 0,
        new Date().toISOString(),
      );
      const localId = Number(info.lastInsertRowid);
      try {
        secrets.set(botTokenAccount(localId), bot.token);
      } catch (error) {
        prep('DELETE FROM kb_bots WHERE local_id = ?').run(localId);
        throw error;
      }
      return this.get(localId)!;
    },
    update(localId: number, fields: { baseUrl?: string; name?: string; remoteBotId?: number | null }): void {
      const bot = this.get(localId);
      if (!bot) return;
      prep('UPDATE kb_bots SET base_url = ?, name = ?, remote_bot_id = ? WHERE local_id = ?').run(
        (fields.baseUrl ?? bot.baseUrl).replace(/\/+$/, ''),
        fields.name ?? bot.name,
        fields.remoteBotId === undefined ? bot.remoteBotId : fields.remoteBotId,
        localId,
      );
    },
    setToken(localId: number, token: string): void {
      secrets.set(botTokenAccount(localId), token);
    },
    token(localId: number): string | null {
      return secrets.get(botTokenAccount(localId));
    },
    remove(localId: number): void {
      prep('DELETE FROM kb_bots WHERE local_id = ?').run(localId);
      secrets.delete(botTokenAccount(localId));
    },
    recordSync(
      localId: number,
      status: {
        at?: string;
        errorCode?: string | null;
        errorMessage?: string | null;
        nextAt?: string | null;
      },
    ): void {
      prep(
        `UPDATE kb_bots SET last_sync_at = COALESCE(?, last_sync_at), last_error_code = ?,
         last_error_message = ?, next_sync_at = ? WHERE local_id = ?`,
      ).run(
        status.at ?? null,
        status.errorCode ?? null,
        status.errorMessage ?? null,
        status.nextAt ?? null,
        localId,
      );
    },
  };
}

export type BotRegistry = ReturnType<typeof createBotRegistry>;

/** Ids only, without the keychain: for modules keyed by bot (the leads receiver's secrets). */
export function botIds(db: Db): number[] {
  const prep = statements(db);
  return (prep('SELECT local_id FROM kb_bots ORDER BY local_id').all() as { local_id: number }[]).map(
    (r) => r.local_id,
  );
}

/** The sandbox demo bot's id on the sandbox server, when it is set up (the Sandbox panel raises its leads). */
export function sandboxRemoteBotId(db: Db): number | null {
  const r = statements(db)(
    'SELECT remote_bot_id FROM kb_bots WHERE is_sandbox = 1 AND remote_bot_id IS NOT NULL LIMIT 1',
  ).get() as { remote_bot_id: number } | undefined;
  return r?.remote_bot_id ?? null;
}
