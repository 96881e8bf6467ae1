import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { APP_MIGRATIONS } from '../../src-main/core/state/migrations';
import { openDatabase } from '../../src-main/shared-node/sqlite';

// Migrations that change rows, each tested the Signal way: rows written at the version before it, the
// migration run, the rows read. Real SQLite files.
const dir = mkdtempSync(join(tmpdir(), 'data-migrations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const upTo = (id: number) => APP_MIGRATIONS.filter((m) => m.id < id);

describe('data migrations of the app database', () => {
  it('25: a mirror delete done before the code existed gets MIRROR-DELETED; other rows keep theirs', () => {
    const path = join(dir, 'm25.sqlite');
    const old = openDatabase(path, upTo(25));
    old
      .prepare(
        "INSERT INTO sync_folders (id, path, bucket, mode, created_at) VALUES (1, '/f', 'b', 'mirror', 0)",
      )
      .run();
    const row = old.prepare(
      `INSERT INTO sync_files (folder_id, name, state, reason_code, reason, remote_url, updated_at)
       VALUES (1, ?, 'DELETED', 'LOCAL-DELETE', ?, 'http://cdn/x', 0)`,
    );
    row.run('gone.pdf', 'Deleted locally. The remote copy was deleted (mirror folder).');
    row.run('kept.pdf', 'Deleted locally. The remote copy is kept (upload-only folder).');
    old.close();
    const db = openDatabase(path, APP_MIGRATIONS);
    expect(db.prepare('SELECT name, reason_code AS code FROM sync_files ORDER BY name').all()).toEqual([
      { name: 'gone.pdf', code: 'MIRROR-DELETED' },
      { name: 'kept.pdf', code: 'LOCAL-DELETE' },
    ]);
    db.close();
  });

  it("97: the old listing's pages leave the offline cache; the account and usage copies stay", () => {
    const path = join(dir, 'm97.sqlite');
    const old = openDatabase(path, upTo(97));
    const put = old.prepare(
      "INSERT INTO service_cache (source, kind, scope, json, fetched_at) VALUES ('sandbox', ?, ?, '{}', 'x')",
    );
    put.run('files', 'bucket=&page=1&per_page=100');
    put.run('account', '');
    put.run('usage', 'days=30');
    old.close();
    const db = openDatabase(path, APP_MIGRATIONS);
    expect(db.prepare('SELECT kind FROM service_cache ORDER BY kind').all()).toEqual([
      { kind: 'account' },
      { kind: 'usage' },
    ]);
    db.close();
  });
});
