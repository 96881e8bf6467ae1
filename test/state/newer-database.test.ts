import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAppService } from '../../src-main/core/app/app-service';
import { openLocalState } from '../../src-main/core/app/local-state';
import { APP_MIGRATIONS } from '../../src-main/core/state/migrations';
import { RELAY_MIGRATIONS } from '../../src-main/relay/relay-db';
import { startRelay } from '../../src-main/relay/relay-server';
import { appVersion } from '../../src-main/shared-node/app-version';
import { type Migration, openDatabase } from '../../src-main/shared-node/sqlite';
import { runCli } from '../cli/run-cli';
import { memorySecrets } from '../support/secrets';

/**
 * A data folder a later build migrated (one migration more, and its version recorded), then opened by
 * this build (issue 33): the app, the CLI and the relay refuse it, say which version wrote it and what to
 * do, and leave every file in the folder as it was, byte for byte, mode and mtime.
 */
const root = mkdtempSync(join(tmpdir(), 'assets-newer-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

const LATER: Migration = {
  id: 9_999,
  name: 'a later build: a table this one does not know',
  up: 'CREATE TABLE later_build_things (id INTEGER PRIMARY KEY, what TEXT NOT NULL)',
};

/** A data folder as the later build `9.9.0` left it: `file` migrated with one migration more. */
function laterFolder(file: string, migrations: readonly Migration[]): string {
  const dir = join(root, `data-${++n}`);
  mkdirSync(dir, { mode: 0o700 });
  const db = openDatabase(join(dir, file), [...migrations, LATER]);
  db.exec("INSERT INTO later_build_things (what) VALUES ('kept')");
  // What the later build records of itself (this checkout's package.json says another version).
  db.prepare("UPDATE schema_meta SET value = '9.9.0' WHERE key = 'written_by'").run();
  db.close();
  return dir;
}

/** Every file under `dir`: its bytes' md5, mode and mtime. */
function fingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const p = join(dir, name);
    const st = statSync(p);
    const md5 = st.isFile() ? createHash('md5').update(readFileSync(p)).digest('hex') : 'dir';
    out[name] = `${md5} ${st.mode.toString(8)} ${st.mtimeMs}`;
  }
  out['.'] = statSync(dir).mode.toString(8);
  return out;
}

const SAYS = /app\.sqlite in the data folder \S+ was written by Assets Sync 9\.9\.0, newer than this one/;

describe('a data folder a later version migrated', () => {
  it('records the version and the newest migration in every database it opens', () => {
    const dir = join(root, `data-${++n}`);
    mkdirSync(dir, { mode: 0o700 });
    const db = openDatabase(join(dir, 'app.sqlite'), APP_MIGRATIONS);
    try {
      const meta = Object.fromEntries(
        (db.prepare('SELECT key, value FROM schema_meta').all() as { key: string; value: string }[]).map(
          (r) => [r.key, r.value],
        ),
      );
      expect(meta).toEqual({
        written_by: appVersion(),
        newest_migration: String(Math.max(...APP_MIGRATIONS.map((m) => m.id))),
      });
      expect(db.pragma('user_version', { simple: true })).toBe(APP_MIGRATIONS.length);
    } finally {
      db.close();
    }
  });

  it('the app refuses it, says who wrote it and what to do, and changes nothing', async () => {
    const dir = laterFolder('app.sqlite', APP_MIGRATIONS);
    const before = fingerprint(dir);
    await expect(createAppService({ dataDir: dir, secrets: memorySecrets() })).rejects.toThrow(SAYS);
    const local = openLocalState(dir, memorySecrets());
    expect(local.ok).toBe(false);
    if (!local.ok) {
      expect(local.error.code).toBe('DATA-NEWER');
      expect(local.error.message).toMatch(SAYS);
      expect(local.error.message).toContain(
        'Update Assets Sync to 9.9.0 or later, or start this version with another data folder',
      );
      expect(local.error.message).toContain('migration 9999');
    }
    expect(fingerprint(dir)).toEqual(before);
  });

  it('the CLI refuses it (status, sync --once): the message on standard error, exit 1, nothing changed', async () => {
    const dir = laterFolder('app.sqlite', APP_MIGRATIONS);
    const src = mkdtempSync(join(root, 'src-'));
    const before = fingerprint(dir);
    for (const args of [['status'], ['sync', src, '--once']]) {
      const run = await runCli([...args, '--data-dir', dir]);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toMatch(SAYS);
      expect(fingerprint(dir)).toEqual(before);
    }
    const json = await runCli(['status', '--json', '--data-dir', dir]);
    expect(json.code).toBe(1);
    expect(JSON.stringify(json.lines)).toContain('DATA-NEWER');
    expect(fingerprint(dir)).toEqual(before);
  });

  it('the relay refuses it (in process and its command), and changes nothing', async () => {
    const dir = laterFolder('relay.sqlite', RELAY_MIGRATIONS);
    const before = fingerprint(dir);
    await expect(startRelay({ dataDir: dir, port: 0 })).rejects.toThrow(
      /relay\.sqlite in the data folder \S+ was written by Assets Sync 9\.9\.0/,
    );
    const run = await runCli(['relay', '--port', '0', '--data-dir', dir]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/relay\.sqlite in the data folder \S+ was written by Assets Sync 9\.9\.0/);
    expect(fingerprint(dir)).toEqual(before);
  });

  it('a database with the same migrations opens as before, whoever wrote it', () => {
    const dir = join(root, `data-${++n}`);
    mkdirSync(dir, { mode: 0o700 });
    openDatabase(join(dir, 'app.sqlite'), APP_MIGRATIONS).close();
    const db = openDatabase(join(dir, 'app.sqlite'), APP_MIGRATIONS);
    db.close();
  });
});

describe('a later version whose last changes are still in the -wal file (it crashed)', () => {
  it('is refused after the open, before anything is written', () => {
    const dir = join(root, `data-${++n}`);
    mkdirSync(dir, { mode: 0o700 });
    const file = join(dir, 'app.sqlite');
    openDatabase(file, APP_MIGRATIONS).close();
    const later = openDatabase(file, APP_MIGRATIONS);
    later.pragma('wal_autocheckpoint = 0');
    // The later build's migration, committed to the -wal file only; the process then dies (the copy).
    later.exec(
      `${LATER.up as string}; INSERT INTO schema_migrations (id, name, applied_at) VALUES (${LATER.id}, 'later', 'x')`,
    );
    const crashed = join(root, `data-${++n}`);
    mkdirSync(crashed, { mode: 0o700 });
    for (const suffix of ['', '-wal']) copyFileSync(`${file}${suffix}`, join(crashed, `app.sqlite${suffix}`));
    later.close();
    expect(() => openDatabase(join(crashed, 'app.sqlite'), APP_MIGRATIONS)).toThrow(/migration 9999/);
  });
});
