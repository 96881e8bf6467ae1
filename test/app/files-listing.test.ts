import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFilesListing } from '../../src-main/core/app/files-listing';
import { serviceCache } from '../../src-main/core/service/cache';
import { APP_MIGRATIONS } from '../../src-main/core/state/migrations';
import { openDatabase } from '../../src-main/shared-node/sqlite';
import type { RemoteFile } from '../../src-shared/api/file-hosting';

const file = (id: number, patch: Partial<RemoteFile> = {}): RemoteFile => ({
  id,
  url: `http://127.0.0.1:1/storage/1/site/${id}.png`,
  bucket: id % 2 ? 'odd' : 'even',
  name: `photo-${id}.png`,
  extension: 'png',
  mime: 'image/png',
  size_bytes: id * 1000,
  hash: 'd41d8cd98f00b204e9800998ecf8427e',
  status: 'ACTIVE',
  created_at: `2026-11-${String(10 + (id % 10)).padStart(2, '0')} 10:00`,
  ...patch,
});

describe('the files listing in the service cache (real SQLite)', () => {
  const dirs: string[] = [];
  const open = () => {
    const dir = dirs[0] ?? mkdtempSync(join(tmpdir(), 'listing-'));
    if (!dirs.length) dirs.push(dir);
    const db = openDatabase(join(dir, 'app.sqlite'), APP_MIGRATIONS);
    return { db, listing: createFilesListing(db, serviceCache(db)) };
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('filters, sorts newest first and pages; changes survive a restart; one offline cache remains', () => {
    const a = open();
    const tables = (
      a.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]
    ).map((t) => t.name);
    expect(tables).toContain('service_cache');
    expect(tables).not.toContain('app_view_cache');
    expect(tables).not.toContain('app_remote_files');

    expect(a.listing.filesFetchedAt('sandbox')).toBe(null);
    a.listing.upsertFile('sandbox', file(9999)); // went live before any refresh: still never read
    expect(a.listing.filesFetchedAt('sandbox')).toBe(null);

    a.listing.replaceFiles(
      'sandbox',
      Array.from({ length: 250 }, (_, i) => file(i + 1)),
      1_700_000_000_000,
    );
    const q = (extra: object = {}) => a.listing.queryFiles('sandbox', { offset: 0, limit: 100, ...extra });
    expect(q().total).toBe(250);
    expect(q().rows[0]!.created_at! >= q().rows[99]!.created_at!).toBe(true);
    expect(q({ bucket: 'odd' }).total).toBe(125);
    expect(
      q({ search: 'PHOTO-25' })
        .rows.map((f) => f.id)
        .sort((x, y) => x - y),
    ).toEqual([25, 250]);
    expect(q({ minBytes: 100_000, maxBytes: 110_000 }).total).toBe(11);
    expect(q({ from: '2026-11-19', to: '2026-11-19' }).total).toBe(25);
    expect(q({ offset: 240 }).rows).toHaveLength(10);
    expect(a.listing.buckets('sandbox')).toEqual(['even', 'odd']);

    a.listing.upsertFile('sandbox', file(251, { name: 'new.png' })); // a fourth page
    a.listing.upsertFile('sandbox', file(7, { name: 'renamed.png' }));
    a.listing.removeFile('sandbox', 8);
    a.db.close();

    const b = open();
    const again = b.listing.queryFiles('sandbox', { offset: 0, limit: 500 });
    expect(again.total).toBe(250);
    const names = new Map(again.rows.map((f) => [f.id, f.name]));
    expect(names.get(251)).toBe('new.png');
    expect(names.get(7)).toBe('renamed.png');
    expect(names.has(8)).toBe(false);
    expect(b.listing.filesFetchedAt('sandbox')).toBe(1_700_000_000_000);
    expect(b.listing.queryFiles('https://other.example', { offset: 0, limit: 10 }).total).toBe(0);
    b.db.close();
  });
});
