import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { botIds } from '../../src-main/core/kb/bots';
import { createEntryStore } from '../../src-main/core/kb/entries';
import { createLeadsStore } from '../../src-main/core/leads/leads-store';
import { serviceSettingsStore } from '../../src-main/core/service/settings';
import { APP_MIGRATIONS } from '../../src-main/core/state/migrations';
import { type Db, openDatabase } from '../../src-main/shared-node/sqlite';
import { MAX_STATEMENTS, statements } from '../../src-main/shared-node/statements';

// One statement cache per database (src-main/shared-node/statements.ts), on real SQLite files.
const dirs: string[] = [];
const opened: Db[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function appDb(): Db {
  const dir = mkdtempSync(join(tmpdir(), 'assets-statements-'));
  dirs.push(dir);
  const db = openDatabase(join(dir, 'app.sqlite'), APP_MIGRATIONS);
  opened.push(db);
  return db;
}

/** Counts the statements SQLite is asked to prepare from here on. */
function countPrepares(db: Db): () => number {
  const real = db.prepare.bind(db);
  let n = 0;
  db.prepare = ((sql: string) => {
    n++;
    return real(sql);
  }) as Db['prepare'];
  return () => n;
}

describe('statements(db)', () => {
  it('gives every module of one database the same prepared statement for the same text', () => {
    const a = appDb();
    const b = appDb();
    const sql = 'SELECT COUNT(*) AS n FROM schema_migrations';
    expect(statements(a)(sql)).toBe(statements(a)(sql));
    expect(statements(a)(sql)).not.toBe(statements(b)(sql));
    expect(statements(a)<[], { n: number }>(sql).get()?.n).toBe(APP_MIGRATIONS.length);
  });

  it('keeps at most MAX_STATEMENTS texts, dropping the oldest first', () => {
    const db = appDb();
    const prep = statements(db);
    const first = prep('SELECT 0');
    for (let i = 1; i < MAX_STATEMENTS; i++) prep(`SELECT ${i}`);
    expect(prep('SELECT 0')).toBe(first);
    prep(`SELECT ${MAX_STATEMENTS}`);
    expect(prep('SELECT 0')).not.toBe(first);
  });

  it('the knowledge entries, leads and settings stores prepare each statement once, not at every call', () => {
    const db = appDb();
    const prepared = countPrepares(db);
    db.prepare(
      "INSERT INTO kb_bots (base_url, name, is_sandbox, created_at) VALUES ('http://127.0.0.1:1', 'bot', 1, '2026-01-01')",
    ).run();
    const entries = createEntryStore(db);
    const leads = createLeadsStore(db);
    const settings = serviceSettingsStore(db);
    const round = (i: number) => {
      const [botId] = botIds(db);
      const created = entries.create(botId!, { title: `entry ${i}`, description: 'text' });
      if (!created.ok) throw new Error(created.error.message);
      const id = created.value.id;
      entries.edit(id, { title: `entry ${i} edited`, description: 'more text' });
      entries.get(id);
      entries.list(botId!);
      entries.counts(botId!);
      const [op] = entries.outbox(botId!);
      entries.markSending(op!.seq, true);
      entries.markSending(op!.seq, false);
      entries.remove(id);
      leads.list({ handled: false });
      leads.count();
      leads.setHandled(1, true);
      settings.set('k', String(i));
      settings.get('k');
    };
    round(1);
    const afterFirst = prepared();
    round(2);
    round(3);
    expect(prepared()).toBe(afterFirst);
  });
});
