import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openLocalState, readLocalSyncStatus } from '../../src-main/core';
import { filesStore } from '../../src-main/core/sync/state/files-store';
import { foldersStore } from '../../src-main/core/sync/state/folders-store';
import { memorySecrets } from '../support/secrets';

// The core's public API for a command that runs once (the CLI), on a real SQLite file.
describe('local state through the public core API', () => {
  const dirs: string[] = [];
  const tmp = () => {
    const d = mkdtempSync(join(tmpdir(), 'local-state-'));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('remembers and forgets an account: key in the keychain only, its offline copy cleared', async () => {
    const secrets = memorySecrets();
    const opened = openLocalState(tmp(), secrets);
    if (!opened.ok) throw new Error(opened.error.message);
    const s = opened.value;
    expect(s.savedAccount()).toBe(null);
    s.rememberAccount('https://files.example', 'ask_secret');
    expect(s.savedAccount()).toBe('https://files.example');
    expect([...secrets.m.values()]).toEqual(['ask_secret']);
    const rows = s.db.prepare('SELECT value FROM service_settings').all() as { value: string }[];
    expect(JSON.stringify(rows)).not.toContain('ask_secret');
    expect(s.forgetAccount('https://files.example')).toBe(true);
    expect(s.savedAccount()).toBe(null);
    expect(secrets.m.size).toBe(0);
    expect(s.forgetAccount('https://files.example')).toBe(false);
    await s.close();
  });

  it('a data dir that cannot be opened is a DATA-DIR error naming it, not a throw', () => {
    const file = join(tmp(), 'not-a-dir');
    writeFileSync(file, 'x');
    const opened = openLocalState(file, memorySecrets());
    expect(opened.ok).toBe(false);
    if (!opened.ok) {
      expect(opened.error.code).toBe('DATA-DIR');
      expect(opened.error.message).toContain(file);
    }
  });

  it('reads the sync status from the rows alone: counts, pending, failed files, activity', async () => {
    const opened = openLocalState(tmp(), memorySecrets());
    if (!opened.ok) throw new Error(opened.error.message);
    const db = opened.value.db;
    const folder = foldersStore(db).insert({ path: '/photos', bucket: 'site', mode: 'upload-only' });
    const files = filesStore(db);
    files.insertNew(folder.id, 'new.png', { size: 1, mtimeMs: 1, inode: 1 }, 0);
    const failed = files.insertNew(folder.id, 'bad.png', { size: 1, mtimeMs: 1, inode: 2 }, 0);
    files.transition(failed, 'FAILED', { reasonCode: 'GONE', reason: 'went away', nextRetryAt: null });

    const status = readLocalSyncStatus(db);
    expect(status.folders).toHaveLength(1);
    const f = status.folders[0]!;
    expect(f.folder.path).toBe('/photos');
    expect(f.counts.NEW).toBe(1);
    expect(f.counts.FAILED).toBe(1);
    expect(f.pending).toBe(1);
    expect(f.failed.map((r) => [r.name, r.reasonCode])).toEqual([['bad.png', 'GONE']]);
    expect(Array.isArray(status.activity)).toBe(true);
    await opened.value.close();
  });
});
