import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { APP_MIGRATIONS } from '../../src-main/core/state/migrations';
import { filesStore } from '../../src-main/core/sync/state/files-store';
import { foldersStore } from '../../src-main/core/sync/state/folders-store';
import { isPending, PENDING_STATES } from '../../src-main/core/sync/state/transitions';
import { FILE_STATES, type FileState } from '../../src-main/core/sync/types';
import { openDatabase } from '../../src-main/shared-node/sqlite';

describe('pending: one definition', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sync-pending-'));
  const db = openDatabase(join(dir, 'app.sqlite'), APP_MIGRATIONS);
  afterAll(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('PAUSED is pending: the file waits for the account and goes on unaided', () => {
    expect(isPending('PAUSED', null)).toBe(true);
    expect(PENDING_STATES).toContain('PAUSED');
  });

  it("the store's SQL (in sync, settled) agrees with isPending for every state, with and without a retry time", () => {
    const files = filesStore(db);
    const folders = foldersStore(db);
    const cases: { state: FileState; nextRetryAt: number | null }[] = FILE_STATES.flatMap((state) => [
      { state, nextRetryAt: null },
      { state, nextRetryAt: 1_000 },
    ]);
    for (const [i, c] of cases.entries()) {
      // One folder per row, so that each answer is about that row alone.
      const folder = folders.insert({ path: join(dir, `f${i}`), bucket: 'b', mode: 'mirror' });
      const id = files.insertNew(folder.id, 'x.png', { size: 1, mtimeMs: 1, inode: 1 }, 0);
      db.prepare('UPDATE sync_files SET state = ?, next_retry_at = ? WHERE id = ?').run(
        c.state,
        c.nextRetryAt,
        id,
      );
      const label = `${c.state} retry=${c.nextRetryAt}`;
      expect(files.hasPending(folder.id), label).toBe(isPending(c.state, c.nextRetryAt));
      expect(files.pendingCount(folder.id), label).toBe(isPending(c.state, c.nextRetryAt) ? 1 : 0);
    }
  });
});
