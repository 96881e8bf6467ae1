// Over 400 lines on purpose: the entry rows and their outbox change together in one transaction per
// edit, acknowledgement or server list, and every such transaction lives here so that the folding rule
// (one outbox row per entry, `rev` guarding acknowledgements) is enforced in one file. Split it by
// caller (edits vs the sync loop) only together with that rule.
import type { KbEntry } from '../../../src-shared/api/knowledge';
import { checkEntryCount, checkEntryFields } from '../../../src-shared/domain/kb-entry';
import { type AppError, appError, err, ok, type Result } from '../../../src-shared/errors';
import type { Db } from '../../shared-node/sqlite';
import { statements } from '../../shared-node/statements';

/**
 * The local mirror of a bot's entries and the outbox that carries edits to the server. Every edit
 * is one transaction: the entry row changes and its outbox operation is written or folded in.
 *
 * An entry has at most one outbox row. A later edit folds into it (keeping its place in the
 * order) and bumps `rev`, so an acknowledgement of an older payload never marks newer text synced.
 */
export type EntryState = 'synced' | 'pending' | 'conflict' | 'error';
export type OutboxOp = 'create' | 'update' | 'delete';

export interface LocalEntry {
  id: number;
  botId: number;
  remoteId: number | null;
  title: string;
  description: string;
  source: string | null;
  sortOrder: number | null;
  baseUpdatedAt: string | null;
  /** The server text the local copy was last in step with. */
  base: { title: string; description: string } | null;
  deleted: boolean;
  state: EntryState;
  pendingOp: OutboxOp | null;
  error: { code: string; message: string } | null;
  theirs: { title: string; description: string; updatedAt: string | null; deleted: boolean } | null;
  editedAt: string;
  /** Epoch ms until which a delete waits for an undo; null when nothing is held. */
  undoUntil: number | null;
}

export interface OutboxRow {
  seq: number;
  botId: number;
  entryId: number;
  op: OutboxOp;
  title: string | null;
  description: string | null;
  rev: number;
  held: boolean;
  sending: boolean;
  /** Not sent before this epoch ms (a delete inside its undo window). */
  notBefore: number | null;
}

interface EntryRow {
  local_id: number;
  bot_local_id: number;
  remote_id: number | null;
  title: string;
  description: string;
  source: string | null;
  sort_order: number | null;
  base_updated_at: string | null;
  base_title: string | null;
  base_description: string | null;
  locally_deleted: number;
  state: EntryState;
  error_code: string | null;
  error_message: string | null;
  theirs_title: string | null;
  theirs_description: string | null;
  theirs_updated_at: string | null;
  theirs_deleted: number;
  edited_at: string;
  op: OutboxOp | null;
  not_before: number | null;
}

interface OutboxDbRow {
  seq: number;
  bot_local_id: number;
  entry_local_id: number;
  op: OutboxOp;
  title: string | null;
  description: string | null;
  rev: number;
  held: number;
  sending: number;
  not_before: number | null;
}

const toEntry = (r: EntryRow): LocalEntry => ({
  id: r.local_id,
  botId: r.bot_local_id,
  remoteId: r.remote_id,
  title: r.title,
  description: r.description,
  source: r.source,
  sortOrder: r.sort_order,
  baseUpdatedAt: r.base_updated_at,
  base: r.base_title === null ? null : { title: r.base_title, description: r.base_description ?? '' },
  deleted: r.locally_deleted === 1,
  state: r.state,
  pendingOp: r.op,
  error: r.error_code ? { code: r.error_code, message: r.error_message ?? '' } : null,
  theirs:
    r.state === 'conflict'
      ? {
          title: r.theirs_title ?? '',
          description: r.theirs_description ?? '',
          updatedAt: r.theirs_updated_at,
          deleted: r.theirs_deleted === 1,
        }
      : null,
  editedAt: r.edited_at,
  undoUntil: r.op === 'delete' && r.locally_deleted === 1 ? r.not_before : null,
});

const toOutbox = (r: OutboxDbRow): OutboxRow => ({
  seq: r.seq,
  botId: r.bot_local_id,
  entryId: r.entry_local_id,
  op: r.op,
  title: r.title,
  description: r.description,
  rev: r.rev,
  held: r.held === 1,
  sending: r.sending === 1,
  notBefore: r.not_before,
});

const now = () => new Date().toISOString();
const notFound = (id: number) => appError('KB-ENTRY-NOT-FOUND', `Entry ${id} is not in this app's list.`);
const tooLate = () =>
  appError(
    'KB-UNDO-TOO-LATE',
    'This delete already went to the server, so it cannot be undone here; add the entry again instead.',
  );

export type Resolution =
  | { keep: 'mine' }
  | { keep: 'theirs' }
  | { merge: { title: string; description: string } };

export function createEntryStore(db: Db) {
  const prep = statements(db);
  const entrySelect = `SELECT e.*, o.op AS op, o.not_before AS not_before FROM kb_entries e
    LEFT JOIN kb_outbox o ON o.entry_local_id = e.local_id`;
  const getRow = (id: number) => prep(`${entrySelect} WHERE e.local_id = ?`).get(id) as EntryRow | undefined;
  const opOf = (entryId: number) =>
    prep('SELECT * FROM kb_outbox WHERE entry_local_id = ?').get(entryId) as OutboxDbRow | undefined;
  const liveCount = (botId: number) =>
    (
      prep('SELECT COUNT(*) AS n FROM kb_entries WHERE bot_local_id = ? AND locally_deleted = 0').get(
        botId,
      ) as { n: number }
    ).n;

  /** Writes or folds the entry's single outbox row; `notBefore` holds it (a delete's undo window). */
  function queue(
    entryId: number,
    botId: number,
    op: OutboxOp,
    title: string | null,
    description: string | null,
    notBefore: number | null = null,
  ) {
    const existing = opOf(entryId);
    if (existing) {
      prep(
        'UPDATE kb_outbox SET op = ?, title = ?, description = ?, rev = rev + 1, held = 0, not_before = ? WHERE seq = ?',
      ).run(
        existing.sending ? existing.op : op,
        existing.sending ? existing.title : title,
        existing.sending ? existing.description : description,
        notBefore,
        existing.seq,
      );
    } else {
      prep(
        'INSERT INTO kb_outbox (bot_local_id, entry_local_id, op, title, description, created_at, not_before) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ).run(botId, entryId, op, title, description, now(), notBefore);
    }
  }

  function markPending(entryId: number) {
    prep(
      "UPDATE kb_entries SET state = 'pending', error_code = NULL, error_message = NULL, edited_at = ? WHERE local_id = ?",
    ).run(now(), entryId);
  }

  const store = {
    list(botId: number): LocalEntry[] {
      return (
        prep(
          `${entrySelect} WHERE e.bot_local_id = ? ORDER BY e.sort_order IS NULL, e.sort_order, e.local_id`,
        ).all(botId) as EntryRow[]
      ).map(toEntry);
    },

    get(id: number): LocalEntry | null {
      const r = getRow(id);
      return r ? toEntry(r) : null;
    },

    create(botId: number, fields: { title: string; description: string }): Result<LocalEntry> {
      const problem = checkEntryFields(fields);
      if (problem) return err(appError(problem.code, problem.message));
      return db.transaction((): Result<LocalEntry> => {
        const tooMany = checkEntryCount(liveCount(botId));
        if (tooMany) return err(appError(tooMany.code, tooMany.message));
        const info = prep(
          "INSERT INTO kb_entries (bot_local_id, title, description, state, edited_at) VALUES (?, ?, ?, 'pending', ?)",
        ).run(botId, fields.title, fields.description, now());
        const id = Number(info.lastInsertRowid);
        queue(id, botId, 'create', fields.title, fields.description);
        return ok(store.get(id)!);
      })();
    },

    edit(id: number, fields: { title: string; description: string }): Result<LocalEntry> {
      const problem = checkEntryFields(fields);
      if (problem) return err(appError(problem.code, problem.message));
      return db.transaction((): Result<LocalEntry> => {
        const row = getRow(id);
        if (!row || row.locally_deleted) return err(notFound(id));
        if (row.state === 'conflict')
          return err(
            appError('KB-IN-CONFLICT', 'This entry changed on the server too: resolve the conflict first.'),
          );
        prep('UPDATE kb_entries SET title = ?, description = ? WHERE local_id = ?').run(
          fields.title,
          fields.description,
          id,
        );
        const op = row.remote_id === null ? 'create' : 'update';
        queue(id, row.bot_local_id, op, fields.title, fields.description);
        markPending(id);
        return ok(store.get(id)!);
      })();
    },

    /**
     * Deletes locally now; the delete waits in the outbox until `holdUntil` (the undo window). An
     * entry never sent is kept until then too, so that an undo can bring it back.
     */
    remove(id: number, holdUntil: number | null = null): Result<LocalEntry> {
      return db.transaction((): Result<LocalEntry> => {
        const row = getRow(id);
        if (!row || row.locally_deleted) return err(notFound(id));
        if (row.state === 'conflict')
          return err(
            appError('KB-IN-CONFLICT', 'This entry changed on the server too: resolve the conflict first.'),
          );
        prep('UPDATE kb_entries SET locally_deleted = 1 WHERE local_id = ?').run(id);
        queue(id, row.bot_local_id, 'delete', null, null, holdUntil);
        markPending(id);
        return ok(store.get(id)!);
      })();
    },

    /**
     * Undoes a delete not yet sent: the entry comes back with whatever it still needs to send
     * (its create, its unsent edit, or nothing when it matches the server's copy).
     */
    restore(id: number): Result<LocalEntry> {
      return db.transaction((): Result<LocalEntry> => {
        const row = getRow(id);
        if (!row) return err(tooLate());
        if (!row.locally_deleted) return err(appError('KB-NOT-DELETED', 'This entry is not deleted.'));
        if (row.state === 'conflict')
          return err(
            appError('KB-IN-CONFLICT', 'This entry changed on the server too: resolve the conflict first.'),
          );
        const op = opOf(id);
        if (!op || (op.sending && op.op === 'delete')) return err(tooLate());
        prep('UPDATE kb_entries SET locally_deleted = 0 WHERE local_id = ?').run(id);
        if (op.sending) {
          // A create is on the wire: its acknowledgement sees the newer revision and sends the text.
          prep('UPDATE kb_outbox SET rev = rev + 1, not_before = NULL WHERE seq = ?').run(op.seq);
          return ok(store.get(id)!);
        }
        const inStep = row.base_title === row.title && row.base_description === row.description;
        if (row.remote_id !== null && inStep) {
          prep('DELETE FROM kb_outbox WHERE seq = ?').run(op.seq);
          prep(
            "UPDATE kb_entries SET state = 'synced', error_code = NULL, error_message = NULL WHERE local_id = ?",
          ).run(id);
          return ok(store.get(id)!);
        }
        queue(id, row.bot_local_id, row.remote_id === null ? 'create' : 'update', row.title, row.description);
        return ok(store.get(id)!);
      })();
    },

    resolve(id: number, resolution: Resolution): Result<LocalEntry | null> {
      if ('merge' in resolution) {
        const problem = checkEntryFields(resolution.merge);
        if (problem) return err(appError(problem.code, problem.message));
      }
      return db.transaction((): Result<LocalEntry | null> => {
        const row = getRow(id);
        if (!row) return err(notFound(id));
        if (row.state !== 'conflict')
          return err(appError('KB-NO-CONFLICT', 'This entry has no conflict to resolve.'));
        const theirsDeleted = row.theirs_deleted === 1;
        const clearTheirs =
          'theirs_title = NULL, theirs_description = NULL, theirs_updated_at = NULL, theirs_deleted = 0';
        if ('keep' in resolution && resolution.keep === 'theirs') {
          prep('DELETE FROM kb_outbox WHERE entry_local_id = ?').run(id);
          if (theirsDeleted) {
            prep('DELETE FROM kb_entries WHERE local_id = ?').run(id);
            return ok(null);
          }
          prep(
            `UPDATE kb_entries SET title = theirs_title, description = theirs_description,
             base_updated_at = theirs_updated_at, base_title = theirs_title,
             base_description = theirs_description, locally_deleted = 0, state = 'synced',
             error_code = NULL, error_message = NULL, ${clearTheirs} WHERE local_id = ?`,
          ).run(id);
          return ok(store.get(id)!);
        }
        const mine =
          'merge' in resolution ? resolution.merge : { title: row.title, description: row.description };
        if (theirsDeleted) {
          // Mine wins over a server delete: the entry is created again, so it counts against the limit.
          if (row.locally_deleted) {
            prep('DELETE FROM kb_outbox WHERE entry_local_id = ?').run(id);
            prep('DELETE FROM kb_entries WHERE local_id = ?').run(id);
            return ok(null);
          }
          prep(
            `UPDATE kb_entries SET title = ?, description = ?, remote_id = NULL, base_updated_at = NULL,
             base_title = NULL, base_description = NULL, sort_order = NULL, ${clearTheirs} WHERE local_id = ?`,
          ).run(mine.title, mine.description, id);
          prep('DELETE FROM kb_outbox WHERE entry_local_id = ?').run(id);
          queue(id, row.bot_local_id, 'create', mine.title, mine.description);
        } else {
          const keepDelete = row.locally_deleted === 1 && !('merge' in resolution);
          prep(
            `UPDATE kb_entries SET title = ?, description = ?, base_updated_at = theirs_updated_at,
             base_title = theirs_title, base_description = theirs_description, locally_deleted = ?, ${clearTheirs} WHERE local_id = ?`,
          ).run(mine.title, mine.description, keepDelete ? 1 : 0, id);
          prep('DELETE FROM kb_outbox WHERE entry_local_id = ?').run(id);
          if (keepDelete) queue(id, row.bot_local_id, 'delete', null, null);
          else queue(id, row.bot_local_id, 'update', mine.title, mine.description);
        }
        markPending(id);
        return ok(store.get(id)!);
      })();
    },

    /** Puts an entry refused by the server back in the queue unchanged (after the cause was fixed there). */
    retry(id: number): Result<LocalEntry> {
      const row = getRow(id);
      if (!row) return err(notFound(id));
      if (row.state !== 'error') return err(appError('KB-NOTHING-TO-RETRY', 'This entry is not in error.'));
      db.transaction(() => {
        prep('UPDATE kb_outbox SET held = 0 WHERE entry_local_id = ?').run(id);
        markPending(id);
      })();
      return ok(store.get(id)!);
    },

    counts(botId: number): {
      total: number;
      pending: number;
      conflict: number;
      error: number;
      unsent: number;
    } {
      const rows = prep(
        'SELECT state, COUNT(*) AS n FROM kb_entries WHERE bot_local_id = ? GROUP BY state',
      ).all(botId) as { state: EntryState; n: number }[];
      const by = Object.fromEntries(rows.map((r) => [r.state, r.n])) as Partial<Record<EntryState, number>>;
      const total = rows.reduce((a, r) => a + r.n, 0);
      const unsent = (
        prep('SELECT COUNT(*) AS n FROM kb_outbox WHERE bot_local_id = ?').get(botId) as { n: number }
      ).n;
      return { total, pending: by.pending ?? 0, conflict: by.conflict ?? 0, error: by.error ?? 0, unsent };
    },

    // ---- used by the sync loop ----

    outbox(botId: number): OutboxRow[] {
      return (
        prep('SELECT * FROM kb_outbox WHERE bot_local_id = ? ORDER BY seq').all(botId) as OutboxDbRow[]
      ).map(toOutbox);
    },

    /** The earliest hold still running (epoch ms), so a round can be due when it ends. */
    nextHold(botId: number, at: number): number | null {
      const r = prep(
        'SELECT MIN(not_before) AS t FROM kb_outbox WHERE bot_local_id = ? AND not_before > ?',
      ).get(botId, at) as { t: number | null };
      return r.t;
    },

    /** Entries never sent whose delete's undo window ended: forgetting them is the whole delete. */
    purgeLocalDeletes(botId: number, at: number): number {
      return db.transaction(() => {
        const ids = (
          prep(
            `SELECT e.local_id FROM kb_entries e JOIN kb_outbox o ON o.entry_local_id = e.local_id
               WHERE e.bot_local_id = ? AND e.remote_id IS NULL AND e.locally_deleted = 1 AND o.op = 'delete'
               AND o.sending = 0 AND (o.not_before IS NULL OR o.not_before <= ?)`,
          ).all(botId, at) as { local_id: number }[]
        ).map((r) => r.local_id);
        for (const id of ids) {
          prep('DELETE FROM kb_outbox WHERE entry_local_id = ?').run(id);
          prep('DELETE FROM kb_entries WHERE local_id = ?').run(id);
        }
        return ids.length;
      })();
    },

    markSending(seq: number, sending: boolean): void {
      prep('UPDATE kb_outbox SET sending = ? WHERE seq = ?').run(sending ? 1 : 0, seq);
    },

    /**
     * The server took `sent` (rev as sent). If the entry was edited meanwhile the row stays, turned
     * into the operation the current local state now needs.
     */
    acknowledge(sent: OutboxRow, server: KbEntry | null): void {
      db.transaction(() => {
        const row = getRow(sent.entryId);
        const current = opOf(sent.entryId);
        if (sent.op === 'delete' || server === null) {
          prep('DELETE FROM kb_outbox WHERE entry_local_id = ?').run(sent.entryId);
          prep('DELETE FROM kb_entries WHERE local_id = ?').run(sent.entryId);
          return;
        }
        if (!row) return;
        prep(
          `UPDATE kb_entries SET remote_id = ?, source = ?, sort_order = ?, base_updated_at = ?, base_title = ?,
           base_description = ? WHERE local_id = ?`,
        ).run(
          server.id,
          server.source,
          server.sort_order,
          server.updated_at,
          server.title,
          server.description,
          sent.entryId,
        );
        if (current && current.rev !== sent.rev) {
          const next: OutboxOp = row.locally_deleted ? 'delete' : 'update';
          prep('UPDATE kb_outbox SET op = ?, title = ?, description = ?, sending = 0 WHERE seq = ?').run(
            next,
            next === 'delete' ? null : row.title,
            next === 'delete' ? null : row.description,
            current.seq,
          );
          return;
        }
        prep('DELETE FROM kb_outbox WHERE entry_local_id = ?').run(sent.entryId);
        prep(
          "UPDATE kb_entries SET title = ?, description = ?, state = 'synced', error_code = NULL, error_message = NULL WHERE local_id = ?",
        ).run(server.title, server.description, sent.entryId);
      })();
    },

    /** The server copy moved on (or is gone): keep both sides for the editor to choose. */
    markConflict(entryId: number, theirs: KbEntry | null): void {
      db.transaction(() => {
        prep('UPDATE kb_outbox SET sending = 0 WHERE entry_local_id = ?').run(entryId);
        prep(
          `UPDATE kb_entries SET state = 'conflict', theirs_title = ?, theirs_description = ?,
           theirs_updated_at = ?, theirs_deleted = ?, error_code = NULL, error_message = NULL WHERE local_id = ?`,
        ).run(
          theirs?.title ?? null,
          theirs?.description ?? null,
          theirs?.updated_at ?? null,
          theirs ? 0 : 1,
          entryId,
        );
      })();
    },

    /** The server refused the operation: hold it until the editor changes the entry or retries. */
    markRefused(entryId: number, error: AppError): void {
      db.transaction(() => {
        prep('UPDATE kb_outbox SET held = 1, sending = 0 WHERE entry_local_id = ?').run(entryId);
        prep(
          "UPDATE kb_entries SET state = 'error', error_code = ?, error_message = ? WHERE local_id = ?",
        ).run(error.code, error.message, entryId);
      })();
    },

    /**
     * One of our deletes reached the server, so a slot is free there: creates it refused (a full bot
     * is the usual reason) are queued again instead of waiting for "Retry as is". One refused for
     * another reason is refused once more and held again.
     */
    releaseRefusedCreates(botId: number): number {
      return db.transaction(() => {
        const ids = (
          prep(
            `SELECT e.local_id FROM kb_entries e JOIN kb_outbox o ON o.entry_local_id = e.local_id
               WHERE e.bot_local_id = ? AND e.state = 'error' AND o.held = 1 AND e.remote_id IS NULL`,
          ).all(botId) as { local_id: number }[]
        ).map((r) => r.local_id);
        for (const id of ids) {
          prep('UPDATE kb_outbox SET held = 0 WHERE entry_local_id = ?').run(id);
          markPending(id);
        }
        return ids.length;
      })();
    },

    /**
     * A create that was on the wire when the app stopped may have landed: an unclaimed server entry
     * with the same title and description is that create, adopted instead of sent twice.
     */
    adoptOrphans(botId: number, server: KbEntry[]): void {
      const sending = store.outbox(botId).filter((o) => o.sending && o.op === 'create');
      if (sending.length === 0) return;
      const claimed = new Set(
        (
          prep('SELECT remote_id FROM kb_entries WHERE bot_local_id = ? AND remote_id IS NOT NULL').all(
            botId,
          ) as { remote_id: number }[]
        ).map((r) => r.remote_id),
      );
      for (const op of sending) {
        const match = server.find(
          (s) => !claimed.has(s.id) && s.title === op.title && s.description === op.description,
        );
        if (match) {
          claimed.add(match.id);
          store.acknowledge(op, match);
        } else store.markSending(op.seq, false);
      }
      for (const op of store.outbox(botId)) if (op.sending) store.markSending(op.seq, false);
    },

    /** Refresh: take the server's list as truth for every entry with nothing of the editor's pending. */
    applyServerList(botId: number, server: KbEntry[]): void {
      db.transaction(() => {
        const local = prep(`${entrySelect} WHERE e.bot_local_id = ? AND e.remote_id IS NOT NULL`).all(
          botId,
        ) as EntryRow[];
        const byRemote = new Map(local.map((r) => [r.remote_id!, r]));
        const seen = new Set<number>();
        for (const s of server) {
          seen.add(s.id);
          const r = byRemote.get(s.id);
          // The server's copy becomes both the entry and its base (named parameters: each field once).
          if (!r) {
            prep(
              `INSERT INTO kb_entries (bot_local_id, remote_id, title, description, source, sort_order,
               base_updated_at, base_title, base_description, state, edited_at)
               VALUES (@bot, @id, @title, @description, @source, @sort_order, @updated_at, @title, @description,
               'synced', @now)`,
            ).run({ ...s, bot: botId, now: now() });
          } else if (r.state === 'synced' && !r.op) {
            prep(
              `UPDATE kb_entries SET title = @title, description = @description, source = @source,
               sort_order = @sort_order, base_updated_at = @updated_at, base_title = @title,
               base_description = @description WHERE local_id = @local_id`,
            ).run({ ...s, local_id: r.local_id });
          } else if (r.state === 'conflict') {
            prep(
              `UPDATE kb_entries SET theirs_title = ?, theirs_description = ?, theirs_updated_at = ?,
               theirs_deleted = 0, sort_order = ? WHERE local_id = ?`,
            ).run(s.title, s.description, s.updated_at, s.sort_order, r.local_id);
          }
        }
        for (const r of local) {
          if (seen.has(r.remote_id!)) continue;
          if (r.state === 'synced' && !r.op)
            prep('DELETE FROM kb_entries WHERE local_id = ?').run(r.local_id);
          else if (r.state === 'conflict')
            prep('UPDATE kb_entries SET theirs_deleted = 1 WHERE local_id = ?').run(r.local_id);
        }
      })();
    },
  };
  return store;
}

export type EntryStore = ReturnType<typeof createEntryStore>;
