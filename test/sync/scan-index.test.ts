import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { APP_MIGRATIONS } from '../../src-main/core/state/migrations';
import { filesStore } from '../../src-main/core/sync/state/files-store';
import { foldersStore } from '../../src-main/core/sync/state/folders-store';
import { openDatabase } from '../../src-main/shared-node/sqlite';
import { tempDir } from './helpers';

// The scan's index of a folder's rows (state/scan-index.ts), read from a real SQLite file: every row
// found by its path and nothing else, whatever the names (unicode, spaces, '%', long), across pages.
const db = openDatabase(join(tempDir('scan-index-'), 'app.sqlite'), APP_MIGRATIONS);
afterAll(() => db.close());
const files = filesStore(db);
const folders = foldersStore(db);
let folderCount = 0;

function folderWith(names: readonly string[]): number {
  const folder = folders.insert({
    path: `/tmp/scan-index-${folderCount++}`,
    bucket: 'b',
    mode: 'upload-only',
  });
  db.transaction(() => {
    names.forEach((name, i) => {
      files.insertNew(folder.id, name, { size: i, mtimeMs: 1_700_000_000_000 + i, inode: 10_000 + i }, 0);
    });
  })();
  return folder.id;
}

// Paths as a folder may hold them: '/'-separated components of any characters but '/' and NUL.
const component = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 12 })
  .filter((s) => !s.includes('/') && !s.includes('\0') && s !== '.' && s !== '..');
const path = fc.array(component, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/'));

describe('scan index', () => {
  it('finds each row by its path with its columns, and nothing that is not a row', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(path, { minLength: 0, maxLength: 60 }), path, async (names, other) => {
        const folderId = folderWith(names);
        const index = await files.scanIndex(folderId);
        try {
          expect(index.size).toBe(names.length);
          names.forEach((name, i) => {
            const row = index.lookup(name);
            expect(row).toBeGreaterThanOrEqual(0);
            expect(index.id(row)).toBe(files.getByName(folderId, name)!.id);
            expect(index.state(row)).toBe('NEW');
            expect(index.sameStat(row, i, 1_700_000_000_000 + i, 10_000 + i)).toBe(true);
            expect(index.sameStat(row, i + 1, 1_700_000_000_000 + i, 10_000 + i)).toBe(false);
          });
          if (!names.includes(other)) expect(index.lookup(other)).toBe(-1);
          expect(index.unmet()).toHaveLength(names.length);
        } finally {
          index.release();
        }
      }),
      { numRuns: 40 },
    );
  });

  it('reads more rows than a page holds, and marks what the walk met', async () => {
    const names = Array.from({ length: 12_345 }, (_, i) => `d${i % 97}/file ${i}.txt`);
    const folderId = folderWith(names);
    const index = await files.scanIndex(folderId);
    try {
      expect(index.size).toBe(names.length);
      for (const name of names) if (!name.endsWith('7.txt')) index.markMet(index.lookup(name));
      const left = index.unmet().map((row) => index.id(row));
      const expected = names.filter((n) => n.endsWith('7.txt')).map((n) => files.getByName(folderId, n)!.id);
      expect(left).toEqual(expected);
    } finally {
      index.release();
    }
  });

  it('an index built on the tables another one released knows nothing of the first', async () => {
    const first = await files.scanIndex(folderWith(Array.from({ length: 3_000 }, (_, i) => `a/${i}`)));
    for (let row = 0; row < first.size; row++) first.markMet(row);
    first.release();
    expect(() => first.lookup('a/1')).toThrow(/after release/);
    const names = Array.from({ length: 2_000 }, (_, i) => `b/${i}`);
    const second = await files.scanIndex(folderWith(names));
    try {
      expect(second.lookup('a/1')).toBe(-1);
      expect(second.lookup('b/1999')).toBeGreaterThanOrEqual(0);
      expect(second.unmet()).toHaveLength(names.length);
    } finally {
      second.release();
    }
  });

  it('reason codes come with their rows', async () => {
    const folderId = folderWith(['ok.txt', 'odd.txt']);
    const odd = files.getByName(folderId, 'odd.txt')!;
    files.transition(odd.id, 'SKIPPED', { reasonCode: 'NOT-A-FILE', reason: 'a pipe' });
    const index = await files.scanIndex(folderId);
    try {
      expect(index.reasonCode(index.lookup('odd.txt'))).toBe('NOT-A-FILE');
      expect(index.state(index.lookup('odd.txt'))).toBe('SKIPPED');
      expect(index.reasonCode(index.lookup('ok.txt'))).toBeNull();
    } finally {
      index.release();
    }
  });

  it('makes room for rows added while it reads, between pages', async () => {
    const folderId = folderWith(Array.from({ length: 6_000 }, (_, i) => `old/${i}`));
    const reading = files.scanIndex(folderId);
    // The read gives the event loop a turn after its first page: rows added then come in later pages.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const folder = folders.get(folderId)!;
    db.transaction(() => {
      for (let i = 0; i < 20_000; i++)
        files.insertNew(folder.id, `new/${i}`, { size: 1, mtimeMs: 1, inode: i }, 0);
    })();
    const index = await reading;
    try {
      expect(index.size).toBe(26_000);
      expect(index.lookup('old/5999')).toBeGreaterThanOrEqual(0);
      expect(index.lookup('new/19999')).toBeGreaterThanOrEqual(0);
      expect(index.lookup('new/20000')).toBe(-1);
    } finally {
      index.release();
    }
  });

  it('reads under a small page cache and gives the connection its limit back, also when two overlap', async () => {
    const before = db.pragma('cache_size', { simple: true });
    const a = files.scanIndex(folderWith(Array.from({ length: 12_000 }, (_, i) => `a/${i}`)));
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(db.pragma('cache_size', { simple: true })).toBe(-2000);
    const b = files.scanIndex(folderWith(Array.from({ length: 6_000 }, (_, i) => `b/${i}`)));
    for (const index of await Promise.all([a, b])) index.release();
    expect(db.pragma('cache_size', { simple: true })).toBe(before);
  });
});
