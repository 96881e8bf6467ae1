import { formatIstSecond } from '../../../src-shared/domain/ist-time';
import { KB_MAX_ENTRIES } from '../../../src-shared/domain/limits';
import type { Db } from '../../shared-node/sqlite';
import { statements } from '../../shared-node/statements';

/** An entry as the API shows it (section 2): `updated_at` in IST, like every date of the service. */
export interface EntryView {
  id: number;
  title: string;
  description: string;
  source: string;
  sort_order: number;
  updated_at: string;
}

interface EntryRow {
  id: number;
  title: string;
  description: string;
  source: string;
  sort_order: number;
  updated_at_ms: number;
}

const view = (r: EntryRow): EntryView => ({
  id: r.id,
  title: r.title,
  description: r.description,
  source: r.source,
  sort_order: r.sort_order,
  updated_at: formatIstSecond(r.updated_at_ms),
});

const COLUMNS = 'id, title, description, source, sort_order, updated_at_ms';

export type CreateOutcome = { ok: true; entry: EntryView } | { ok: false; reason: 'LIMIT' };

/** The kb_entries table, always scoped to one bot: an id of another bot reads as absent. */
export function entryStore(db: Db) {
  const prep = statements(db);
  const list = prep(`SELECT ${COLUMNS} FROM kb_entries WHERE bot_id = ? ORDER BY sort_order, id`);
  const one = prep(`SELECT ${COLUMNS} FROM kb_entries WHERE id = ? AND bot_id = ?`);
  const count = prep(
    'SELECT COUNT(*) AS n, COALESCE(MAX(sort_order), 0) AS top FROM kb_entries WHERE bot_id = ?',
  );
  const insert = prep(
    `INSERT INTO kb_entries (bot_id, title, description, source, sort_order, updated_at_ms) VALUES (?, ?, ?, 'API', ?, ?)`,
  );
  const update = prep(
    `UPDATE kb_entries SET title = COALESCE(?, title), description = COALESCE(?, description), updated_at_ms = ?
     WHERE id = ? AND bot_id = ?`,
  );
  const remove = prep('DELETE FROM kb_entries WHERE id = ? AND bot_id = ?');

  const get = (botId: number, id: number): EntryView | null => {
    const row = one.get(id, botId) as EntryRow | undefined;
    return row ? view(row) : null;
  };

  return {
    list: (botId: number): EntryView[] => (list.all(botId) as EntryRow[]).map(view),
    get,
    // One transaction: the count and the insert cannot be split by another request.
    create: db.transaction(
      (botId: number, fields: { title: string; description: string }, nowMs: number): CreateOutcome => {
        const { n, top } = count.get(botId) as { n: number; top: number };
        if (n >= KB_MAX_ENTRIES) return { ok: false, reason: 'LIMIT' };
        const info = insert.run(botId, fields.title, fields.description, top + 1, nowMs);
        return { ok: true, entry: get(botId, Number(info.lastInsertRowid))! };
      },
    ),
    update(botId: number, id: number, fields: { title?: string; description?: string }, nowMs: number) {
      const info = update.run(fields.title ?? null, fields.description ?? null, nowMs, id, botId);
      return info.changes === 0 ? null : get(botId, id);
    },
    remove: (botId: number, id: number): boolean => remove.run(id, botId).changes > 0,
  };
}

export type EntryStore = ReturnType<typeof entryStore>;
