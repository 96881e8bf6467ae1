import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { LEADS_MIGRATIONS } from '../../src-main/core/leads/migrations';
import { openDatabase } from '../../src-main/shared-node/sqlite';

// Migration 210 on a database with leads in it: a lead handled before it keeps its state, and that
// change counts as made when it was handled (the latest change wins against another desk's).
it('keeps handled leads handled, with the time of that change, and the open ones open', () => {
  const dir = mkdtempSync(join(tmpdir(), 'leads-210-'));
  try {
    const file = join(dir, 'app.sqlite');
    const before = openDatabase(
      file,
      LEADS_MIGRATIONS.filter((m) => m.id < 210),
    );
    const insert = before.prepare(
      `INSERT INTO leads (bot_local_id, remote_bot_id, bot_name, business_name, conversation_id, event, name, email,
       phone, note, asked_for_a_person, visitor_ref, started_at, received_at, handled_at, raw_body)
       VALUES (1, 7, 'Bot', 'Biz', ?, 'LEAD-CAPTURED', ?, '', '', NULL, 0, 'v', '', '2025-01-01T00:00:00.000Z', ?, '{}')`,
    );
    insert.run(1, 'Handled one', '2025-01-02T10:00:00.000Z');
    insert.run(2, 'Open one', null);
    before.close();
    const after = openDatabase(file, LEADS_MIGRATIONS);
    expect(
      after
        .prepare(
          'SELECT conversation_id, handled_at, handled_by, handled_changed_at, handled_changed_by, mark_unsent, relay_seq FROM leads ORDER BY conversation_id',
        )
        .all(),
    ).toEqual([
      {
        conversation_id: 1,
        handled_at: '2025-01-02T10:00:00.000Z',
        handled_by: null,
        handled_changed_at: '2025-01-02T10:00:00.000Z',
        handled_changed_by: null,
        mark_unsent: 0,
        relay_seq: null,
      },
      {
        conversation_id: 2,
        handled_at: null,
        handled_by: null,
        handled_changed_at: null,
        handled_changed_by: null,
        mark_unsent: 0,
        relay_seq: null,
      },
    ]);
    after.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
