import type { Db } from '../../src-main/shared-node/sqlite';
import { FILE_STATES } from '../../src-shared/contract/sync';

/**
 * Rows for every table either database has had, as a user's machine would hold them: written once,
 * with every column of the table's latest shape, and inserted into a database of any schema with
 * the columns that table has there (a column added later is left to its default, as on a machine
 * that ran the older release). A table with no rows here fails test/state/migration-data.test.ts:
 * a migration that adds a table adds its rows here in the same change.
 */
type Rows = Record<string, Record<string, unknown>[]>;

const T0 = 1_764_000_000_000; // 2025-11-24, epoch ms
const IST = '2025-11-24 17:30';
const IST_EARLIER = '2025-11-24 09:15';

/** The app database (app.sqlite): one folder of each mode, a file in every state, and the rest. */
export const APP_ROWS: Rows = {
  sync_folders: [
    {
      id: 1,
      path: '/home/a/photos',
      bucket: 'photos',
      mode: 'upload-only',
      paused: 0,
      ignore_patterns: '*.psd',
      watcher: 'native',
      problem: null,
      created_at: T0,
      follow_outside_links: 0,
    },
    {
      id: 2,
      path: '/home/a/site',
      bucket: 'site',
      mode: 'mirror',
      paused: 1,
      ignore_patterns: '',
      watcher: 'polling',
      problem: 'The folder /home/a/site is missing.',
      created_at: T0 + 1,
      follow_outside_links: 1,
    },
  ],
  // One file in every state, with what each state holds: an md5 once hashed, a remote once live,
  // a reason when skipped or failed, a retry time when failed.
  sync_files: FILE_STATES.map((state, i) => ({
    id: i + 1,
    folder_id: i % 2 === 0 ? 1 : 2,
    name: `dir/${state.toLowerCase()}-${i}.png`,
    state,
    size: 1000 + i,
    mtime_ms: T0 - i,
    inode: 500 + i,
    md5: state === 'NEW' ? null : `${String(i).padStart(2, '0')}${'a'.repeat(30)}`,
    remote_id: ['LIVE', 'DELETING', 'DELETED'].includes(state) ? 9000 + i : null,
    remote_url: ['LIVE', 'DELETING', 'DELETED'].includes(state)
      ? `https://cdn.example/storage/1/photos/x-${i}.png`
      : null,
    remote_md5: state === 'LIVE' ? `${String(i).padStart(2, '0')}${'a'.repeat(30)}` : null,
    remote_size: state === 'LIVE' ? 1000 + i : null,
    old_remote_id: state === 'NEW' ? 8000 : null,
    reason_code:
      state === 'SKIPPED'
        ? 'EXTENSION-NOT-ALLOWED'
        : state === 'FAILED'
          ? 'NETWORK'
          : state === 'PAUSED'
            ? 'LOW-BALANCE'
            : null,
    // The DELETED row is a mirror delete from before its code existed (25 gives it MIRROR-DELETED).
    reason: ['SKIPPED', 'FAILED', 'PAUSED'].includes(state)
      ? `why ${state}`
      : state === 'DELETED'
        ? 'Deleted locally. The remote copy was deleted (mirror folder).'
        : null,
    attempts: state === 'FAILED' ? 3 : 0,
    next_retry_at: state === 'FAILED' ? T0 + 60_000 : null,
    not_before: T0 + 150,
    renamed_from: state === 'LIVE' ? 'dir/old-name.png' : null,
    rehashed: state === 'QUEUED' ? 1 : 0,
    scan_gen: 2,
    updated_at: T0 + i,
    priority: state === 'QUEUED' ? T0 : 0,
  })),
  sync_journal: [
    {
      id: 1,
      file_id: FILE_STATES.indexOf('UPLOADING') + 1,
      bucket: 'photos',
      name: 'dir/uploading.png',
      size: 1003,
      md5: 'b'.repeat(32),
      started_at: T0,
      settled_at: null,
      outcome: null,
      remote_id: null,
    },
    {
      id: 2,
      file_id: FILE_STATES.indexOf('LIVE') + 1,
      bucket: 'photos',
      name: 'dir/live.png',
      size: 1004,
      md5: 'c'.repeat(32),
      started_at: T0,
      settled_at: T0 + 5,
      outcome: 'LIVE',
      remote_id: 9004,
    },
  ],
  sync_trash: [
    {
      remote_id: 7001,
      reason: 'old version of dir/a.png',
      attempts: 1,
      next_retry_at: T0 + 1000,
      created_at: T0,
    },
  ],
  sync_activity: [
    { id: 1, at: T0, folder_id: 1, file_id: 1, kind: 'rename', message: 'dir/a.png was renamed' },
  ],
  sync_account: [{ id: 1, service: 'https://files.example', client_id: 42, since: T0 }],
  sync_scan_marks: [
    { folder_id: 1, gen: 7, mark_gen: 7, digest: 'd'.repeat(40), files: 5, ignored: '[]' },
    { folder_id: 2, gen: 3, mark_gen: 2, digest: 'e'.repeat(40), files: 4, ignored: '["x.tmp"]' },
  ],
  service_settings: [{ key: 'account.baseUrl', value: 'https://files.example', updated_at: IST }],
  service_cache: [
    {
      source: 'https://files.example',
      kind: 'account',
      scope: '',
      json: '{"client":{"id":42}}',
      fetched_at: IST,
    },
    { source: 'sandbox', kind: 'usage', scope: '30', json: '[]', fetched_at: IST },
    // A page of the old files listing, as before 97 (which deletes it: the remote index owns files).
    {
      source: 'https://files.example',
      kind: 'files',
      scope: 'bucket=&page=1&per_page=50',
      json: '{"data":[],"total":0}',
      fetched_at: IST,
    },
  ],
  kb_bots: [
    {
      local_id: 1,
      base_url: 'https://kb.example',
      remote_bot_id: 5,
      name: 'Shop bot',
      is_sandbox: 0,
      created_at: IST,
      last_sync_at: IST,
      last_error_code: null,
      last_error_message: null,
      next_sync_at: null,
    },
    {
      local_id: 2,
      base_url: 'http://127.0.0.1:4010',
      remote_bot_id: 1,
      name: 'Demo bot',
      is_sandbox: 1,
      created_at: IST,
      last_sync_at: null,
      last_error_code: 'NETWORK',
      last_error_message: 'No answer',
      next_sync_at: IST,
    },
  ],
  kb_entries: ['synced', 'pending', 'conflict', 'error'].map((state, i) => ({
    local_id: i + 1,
    bot_local_id: 1,
    remote_id: state === 'pending' ? null : 100 + i,
    title: `Entry ${state}`,
    description: `About ${state}`,
    source: 'editor',
    sort_order: i,
    base_updated_at: IST,
    base_title: `Entry ${state}`,
    base_description: 'before',
    locally_deleted: state === 'error' ? 1 : 0,
    state,
    error_code: state === 'error' ? 'KB-LIMIT' : null,
    error_message: state === 'error' ? 'At the limit' : null,
    theirs_title: state === 'conflict' ? 'Theirs' : null,
    theirs_description: state === 'conflict' ? 'their text' : null,
    theirs_updated_at: state === 'conflict' ? IST : null,
    theirs_deleted: 0,
    edited_at: IST,
  })),
  kb_outbox: [
    {
      seq: 1,
      bot_local_id: 1,
      entry_local_id: 2,
      op: 'create',
      title: 'Entry pending',
      description: 'About pending',
      rev: 1,
      held: 0,
      sending: 0,
      created_at: IST,
      not_before: null,
    },
    {
      seq: 2,
      bot_local_id: 1,
      entry_local_id: 4,
      op: 'delete',
      title: null,
      description: null,
      rev: 2,
      held: 1,
      sending: 0,
      created_at: IST,
      not_before: T0 + 30_000,
    },
  ],
  leads: [
    {
      id: 1,
      bot_local_id: 1,
      remote_bot_id: 5,
      bot_name: 'Shop bot',
      business_name: 'Shop',
      conversation_id: 77,
      event: 'LEAD-CAPTURED',
      name: 'Asha Rao',
      email: 'asha@example.com',
      phone: '+91 98450 00000',
      note: 'Wants a quote',
      asked_for_a_person: 1,
      visitor_ref: 'v-1',
      started_at: IST,
      received_at: IST,
      handled_at: null,
      raw_body: '{"event":"LEAD-CAPTURED"}',
      handled_by: null,
      handled_changed_at: null,
      handled_changed_by: null,
      mark_unsent: 0,
      relay_seq: null,
    },
    {
      // Handled before the relay (210): the time of that change is the time it was handled.
      id: 2,
      bot_local_id: 1,
      remote_bot_id: 5,
      bot_name: 'Shop bot',
      business_name: 'Shop',
      conversation_id: 78,
      event: 'LEAD-CAPTURED',
      name: 'Ravi Menon',
      email: 'ravi@example.com',
      phone: '+91 98450 00001',
      note: null,
      asked_for_a_person: 0,
      visitor_ref: 'v-2',
      started_at: IST,
      received_at: IST_EARLIER,
      handled_at: IST,
      raw_body: '{"event":"LEAD-CAPTURED"}',
      handled_by: null,
      handled_changed_at: IST,
      handled_changed_by: null,
      mark_unsent: 0,
      relay_seq: null,
    },
  ],
  leads_receiver: [{ id: 1, host: '127.0.0.1', port: 4545, path: '/leads' }],
  leads_relay: [{ id: 1, url: 'https://relay.example', desk_name: 'front desk', allow_insecure: 0 }],
  leads_relay_cursor: [
    { url: 'https://relay.example', cursor: 12, last_pull_at: IST, waiting: 0, expired: 2 },
  ],
  leads_rejected: [
    {
      id: 1,
      relay_url: 'https://relay.example',
      relay_seq: 11,
      received_at: IST,
      event: 'LEAD-CAPTURED',
      signature: 'sha256=00',
      body: Buffer.from('{"event":"LEAD-CAPTURED"}'),
      code: 'BAD-SIGNATURE',
      reason: 'The signature does not match.',
      remote_bot_id: 5,
      conversation_id: 79,
      rejected_at: IST,
    },
  ],
  leads_marks_waiting: [
    { remote_bot_id: 5, conversation_id: 77, handled: 1, by: 'front desk', at: IST, sig: 'sha256=01' },
  ],
  app_settings: [
    { key: 'concurrency', value: '4' },
    // A schedule saved with rates, as before 330 (which rewrites it as kinds of hour).
    { key: 'settings', value: JSON.stringify({ bwlimit: '2M', bwSchedule: 'Mon-09:00,256k Mon-17:00,2M' }) },
  ],
  // Made by migration 300 and dropped by 301: rows an older machine still had.
  app_view_cache: [{ base_url: 'https://files.example', kind: 'account', json: '{}', fetched_at: T0 }],
  app_remote_files: [
    {
      base_url: 'https://files.example',
      id: 1,
      bucket: 'photos',
      name: 'a.png',
      size_bytes: 10,
      created_at: IST,
      json: '{}',
    },
  ],
  remote_index_accounts: [
    {
      id: 1,
      service: 'https://files.example',
      client_id: 42,
      watermark: 9004,
      pass_top: 9004,
      pass_low: 9000,
      pass_page: 2,
      refreshed_at: T0,
      walk_top: 9004,
      walk_low: 1,
      walk_page: 3,
      walk_started_at: T0,
      walk_finished_at: null,
    },
  ],
  remote_index_files: [9004, 9005].map((id) => ({
    account_id: 1,
    id,
    name: `Photo ${id}.PNG`,
    name_fold: `photo ${id}.png`,
    bucket: 'photos',
    url: `https://cdn.example/storage/42/photos/x-${id}.png`,
    size: 1004,
    md5: 'c'.repeat(32),
    mime: 'image/png',
    extension: 'png',
    created_at: IST,
    created_ms: T0,
  })),
  remote_bulk_jobs: [
    {
      id: 1,
      account_id: 1,
      state: 'running',
      total: 2,
      bytes: 2008,
      last_error_code: null,
      last_error_message: null,
      started_at: T0,
      finished_at: null,
    },
  ],
  remote_bulk_items: [
    { job_id: 1, file_id: 9004, size: 1004, state: 1 },
    { job_id: 1, file_id: 9005, size: 1004, state: 0 },
  ],
  // A file the index saw go from the service, waiting for the sync rows on it to be told.
  remote_index_gone: [{ account_id: 1, id: 9003, at: T0 + 5 }],
};

/** The reference server's database: a client with a key, files live and deleted, money, a bot's traffic. */
export const SERVER_ROWS: Rows = {
  server_meta: [{ key: 'clock_offset_ms', value: '86400000' }],
  clients: [
    {
      id: 1,
      name: 'Demo',
      default_bucket: 'default',
      status: 'ACTIVE',
      balance_paise: 10_000,
      arrears_paise: 0,
      arrears_since: null,
      closed_at: null,
      created_at: T0,
    },
    {
      id: 2,
      name: 'Late',
      default_bucket: 'late',
      status: 'PAUSED',
      balance_paise: 0,
      arrears_paise: 250,
      arrears_since: T0,
      closed_at: null,
      created_at: T0,
    },
  ],
  api_keys: [
    { id: 1, client_id: 1, digest: 'f'.repeat(64), created_at: T0, revoked_at: null },
    { id: 2, client_id: 2, digest: 'e'.repeat(64), created_at: T0, revoked_at: T0 + 5 },
  ],
  files: ['ACTIVE', 'DELETED'].map((status, i) => ({
    id: i + 1,
    client_id: 1,
    bucket: 'default',
    name: `Résumé ${i}.pdf`,
    url_name: `Résumé ${i}.pdf`,
    object_key: `1/${'0'.repeat(23)}${i}`,
    extension: 'pdf',
    mime: 'application/pdf',
    size_bytes: 2048,
    hash: 'a'.repeat(32),
    status,
    created_at: T0,
    deleted_at: status === 'DELETED' ? T0 + 10 : null,
  })),
  ledger: [
    {
      id: 1,
      client_id: 1,
      at: T0,
      kind: 'TOPUP',
      amount_paise: 10_000,
      balance_after_paise: 10_000,
      arrears_after_paise: 0,
      usage_date: null,
    },
    {
      id: 2,
      client_id: 2,
      at: T0,
      kind: 'RENT',
      amount_paise: -250,
      balance_after_paise: 0,
      arrears_after_paise: 250,
      usage_date: '2025-11-24',
    },
  ],
  usage_snapshots: [
    {
      client_id: 1,
      usage_date: '2025-11-24',
      bytes_used: 2048,
      files_count: 1,
      rent_paise: 0,
      outcome: 'FREE',
    },
  ],
  kb_bots: [
    {
      id: 1,
      client_id: 1,
      name: 'Demo bot',
      business_name: 'Demo business',
      webhook_url: 'http://127.0.0.1:4545/leads',
      token_sha256: 'b'.repeat(64),
      signing_secret: 'secret',
      created_at_ms: T0,
    },
  ],
  kb_entries: [
    {
      id: 1,
      bot_id: 1,
      title: 'Hours',
      description: '9 to 6',
      source: 'api',
      sort_order: 0,
      updated_at_ms: T0,
    },
  ],
  kb_conversations: [{ id: 1, bot_id: 1, visitor_ref: 'v-1', started_at_ms: T0 }],
  kb_deliveries: [
    {
      id: 1,
      bot_id: 1,
      conversation_id: 1,
      event: 'LEAD-CAPTURED',
      body: Buffer.from('{"event":"LEAD-CAPTURED"}'),
      state: 'PENDING',
      next_attempt_at_ms: T0 + 60_000,
      created_at_ms: T0,
    },
  ],
  kb_delivery_attempts: [{ delivery_id: 1, number: 1, at_ms: T0, status: 500, error: null, duration_ms: 12 }],
};

/**
 * The relay's database (src-main/relay/relay-db.ts): its keys (one row), the sequence (the migration's own
 * row, replaced), two deliveries and two marks. The read token and webhook secret are fixtures, not real.
 */
export const RELAY_ROWS: Rows = {
  relay_keys: [
    { id: 1, webhook_secret: 'whsec-fixture', read_token: 'rt-fixture', created_at: '2025-11-24T00:00:00Z' },
  ],
  relay_seq: [{ id: 1, last: 4 }],
  deliveries: [
    {
      seq: 1,
      received_at: T0,
      bot_id: 7,
      conversation_id: 70,
      event: 'LEAD-CAPTURED',
      signature: 'sig-1',
      content_type: 'application/json',
      body: Buffer.from('{"lead":1}'),
    },
    {
      seq: 2,
      received_at: T0 + 1_000,
      bot_id: 7,
      conversation_id: 71,
      event: null,
      signature: 'sig-2',
      content_type: null,
      body: Buffer.from('{"lead":2}'),
    },
  ],
  marks: [
    {
      seq: 3,
      received_at: T0 + 2_000,
      bot_id: 7,
      conversation_id: 70,
      handled: 1,
      by: 'desk a',
      at: '2025-11-24 05:30',
      sig: 'm-1',
    },
    {
      seq: 4,
      received_at: T0 + 3_000,
      bot_id: 7,
      conversation_id: 70,
      handled: 0,
      by: 'desk b',
      at: '2025-11-24 05:31',
      sig: 'm-2',
    },
  ],
  // A delivery retention deleted (relay migration 3): its seq alone, after the rows above.
  expired: [{ seq: 5 }],
};

/** The tables of a database now, but schema_migrations and schema_meta (the migrations' own record). */
export function tablesOf(db: Db): string[] {
  return (
    db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .all() as { name: string }[]
  )
    .map((r) => r.name)
    .filter((n) => n !== 'schema_migrations' && n !== 'schema_meta');
}

export const columnsOf = (db: Db, table: string): string[] =>
  (db.pragma(`table_info("${table}")`) as { name: string }[]).map((c) => c.name);

/**
 * Inserts `rows` into the tables `db` has, each with the columns its table has here. Throws when a
 * table of `db` has no rows in `rows`, or a column of `db` is missing from them: the seed must cover
 * every table and column a migration may touch.
 */
export function seed(db: Db, rows: Rows): void {
  db.transaction(() => {
    for (const table of insertOrder(tablesOf(db), rows)) {
      const list = rows[table];
      if (!list?.length) throw new Error(`test/state/seed-rows.ts has no rows for the table ${table}`);
      const columns = columnsOf(db, table);
      const missing = columns.filter((c) => !(c in list[0]!));
      if (missing.length)
        throw new Error(`test/state/seed-rows.ts: ${table} has no value for ${missing.join(', ')}`);
      const insert = db.prepare(
        // OR REPLACE: a row a migration inserts itself (the relay's sequence) takes the seed's values.
        `INSERT OR REPLACE INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      );
      for (const row of list) insert.run(...columns.map((c) => row[c]));
    }
  })();
}

/** The tables in the order `rows` lists them (parents before children), those it lacks last. */
function insertOrder(tables: string[], rows: Rows): string[] {
  const known = Object.keys(rows).filter((t) => tables.includes(t));
  return [...known, ...tables.filter((t) => !known.includes(t))];
}

/** Every row of every table (but schema_migrations), each by the columns it has now, in rowid or key order. */
export function snapshot(db: Db): Record<string, Record<string, unknown>[]> {
  const out: Record<string, Record<string, unknown>[]> = {};
  for (const table of tablesOf(db)) {
    const columns = columnsOf(db, table);
    out[table] = db
      .prepare(`SELECT * FROM "${table}" ORDER BY ${columns.map((c) => `"${c}"`).join(', ')}`)
      .all() as Record<string, unknown>[];
  }
  return out;
}

/** `after`'s rows cut to the columns `before` had, to compare a table across a migration. */
export function asBefore(
  before: Record<string, Record<string, unknown>[]>,
  after: Record<string, Record<string, unknown>[]>,
  table: string,
): Record<string, unknown>[] {
  const columns = Object.keys(before[table]?.[0] ?? {});
  return (after[table] ?? []).map((row) => Object.fromEntries(columns.map((c) => [c, row[c]])));
}
