import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { indexStore } from '../../src-main/core/remote-index/index-store';
import { createRemoteIndex } from '../../src-main/core/remote-index/remote-index';
import type { RemoteFile } from '../../src-shared/api/file-hosting';
import type { IndexedFile, IndexQuery, IndexSort } from '../../src-shared/contract/remote-index';
import { formatIstMinute, parseIst } from '../../src-shared/domain/ist-time';
import { foldForSearch } from '../../src-shared/domain/search-fold';
import { tempAppDb } from './helpers';

// The index's answers against a plain in-memory model of the same files (real SQLite, no server).

let app: ReturnType<typeof tempAppDb>;
beforeEach(() => {
  app = tempAppDb();
});
afterEach(() => app.close());

const account = { service: 'http://svc.test', clientId: 7 };
const BUCKETS = ['alpha', 'beta', 'c.3'];
const KINDS: [string, string][] = [
  ['pdf', 'application/pdf'],
  ['png', 'image/png'],
  ['jpg', 'image/jpeg'],
  ['mp4', 'video/mp4'],
  ['txt', 'text/plain'],
];
const T0 = Date.UTC(2026, 0, 1);

const fileArb = fc.record({
  stem: fc.oneof(
    fc.string({ minLength: 1, maxLength: 12 }),
    fc.constantFrom('Price List', 'price-list', 'PRICE', 'brochure', 'Ünïcode', 'ÉTÉ', '=cmd', 'a,b"c'),
  ),
  kind: fc.integer({ min: 0, max: KINDS.length - 1 }),
  bucket: fc.integer({ min: 0, max: BUCKETS.length - 1 }),
  size: fc.integer({ min: 1, max: 5_000 }),
  minute: fc.integer({ min: 0, max: 3 * 24 * 60 }),
});

interface Spec {
  stem: string;
  kind: number;
  bucket: number;
  size: number;
  minute: number;
}

function toRemote(i: number, f: Spec): RemoteFile {
  const [extension, mime] = KINDS[f.kind]!;
  return {
    id: 1000 + i,
    url: `http://cdn.test/storage/7/${BUCKETS[f.bucket]}/${i}.${extension}`,
    bucket: BUCKETS[f.bucket]!,
    name: `${f.stem}.${extension}`,
    extension,
    mime,
    size_bytes: f.size,
    hash: String(i).padStart(32, '0'),
    status: 'ACTIVE',
    created_at: formatIstMinute(T0 + f.minute * 60_000),
  };
}

/** SQLite's BINARY order is the UTF-8 bytes' order. */
const bytesCmp = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

function model(files: RemoteFile[], q: IndexQuery): number[] {
  // Accents and case do not count, in the search and in the order by name (issue 34).
  const search = q.search === undefined ? undefined : foldForSearch(q.search);
  const exts = q.extensions?.map((e) => e.toLowerCase());
  let rows = files.filter(
    (f) =>
      (!search || foldForSearch(f.name).includes(search)) &&
      (!q.bucket || f.bucket === q.bucket) &&
      (!exts || exts.includes(f.extension)) &&
      (!q.type || f.mime.startsWith(q.type.includes('/') ? q.type : `${q.type}/`)),
  );
  const sort: IndexSort = q.sort ?? 'date';
  const desc = (q.order ?? (sort === 'date' || sort === 'size' ? 'desc' : 'asc')) === 'desc';
  const key = (f: RemoteFile): number | string =>
    sort === 'date'
      ? parseIst(f.created_at)!
      : sort === 'size'
        ? f.size_bytes
        : sort === 'name'
          ? foldForSearch(f.name)
          : f.bucket;
  rows = [...rows].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    const c = typeof ka === 'number' ? ka - (kb as number) : bytesCmp(ka, kb as string);
    return (desc ? -1 : 1) * (c !== 0 ? c : a.id - b.id);
  });
  return rows.map((f) => f.id);
}

function allPages(index: ReturnType<ReturnType<typeof createRemoteIndex>['forAccount']>, q: IndexQuery) {
  const ids: number[] = [];
  let after: string | undefined;
  for (let guard = 0; guard < 1000; guard++) {
    const r = index.page({ ...q, ...(after ? { after } : {}) });
    if (!r.ok) throw new Error(r.error.message);
    ids.push(...r.value.files.map((f: IndexedFile) => f.id));
    if (!r.value.next) return ids;
    after = r.value.next;
  }
  throw new Error('no end');
}

describe('remote index queries', () => {
  it('search, filters and every sort, paged by keyset and by offset, match a plain model', () => {
    fc.assert(
      fc.property(
        fc.array(fileArb, { minLength: 0, maxLength: 60 }),
        fc.record(
          {
            search: fc.constantFrom('price', 'PRI', 'e', 'ü', 'ÉT', '=', ','),
            bucket: fc.constantFrom(...BUCKETS),
            extensions: fc.subarray(['pdf', 'PNG', 'jpg', 'mp4', 'txt'], { minLength: 1 }),
            type: fc.constantFrom('image', 'image/', 'application/pdf', 'video', 'text/plain'),
            sort: fc.constantFrom<IndexSort>('date', 'name', 'size', 'bucket'),
            order: fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
            limit: fc.integer({ min: 1, max: 7 }),
          },
          { requiredKeys: [] },
        ),
        (specs, q) => {
          app.db.exec('DELETE FROM remote_index_files');
          const files = specs.map((s, i) => toRemote(i, s));
          const store = indexStore(app.db);
          const idx = createRemoteIndex(app.db).forAccount(account);
          store.put(store.accountId(account), files);
          const want = model(files, q);
          expect(allPages(idx, q)).toEqual(want);
          // Offsets walk the same order.
          const limit = q.limit ?? 100;
          const byOffset: number[] = [];
          for (let offset = 0; offset < want.length + limit; offset += limit) {
            const r = idx.page({ ...q, offset });
            if (!r.ok) throw new Error(r.error.message);
            byOffset.push(...r.value.files.map((f) => f.id));
          }
          expect(byOffset).toEqual(want);
          const { sort: _s, order: _o, limit: _l, ...filter } = q;
          const sum = idx.summary(filter);
          expect(sum.ok && sum.value).toEqual({
            count: want.length,
            bytes: files.filter((f) => want.includes(f.id)).reduce((n, f) => n + f.size_bytes, 0),
          });
        },
      ),
      { numRuns: 150, seed: 1340 },
    );
  });

  it('a keyset page stays right while files come and go before the cursor', () => {
    const store = indexStore(app.db);
    const accountId = store.accountId(account);
    const idx = createRemoteIndex(app.db).forAccount(account);
    const specs = Array.from({ length: 30 }, (_, i) => ({
      stem: `f${String(i).padStart(2, '0')}`,
      kind: 0,
      bucket: 0,
      size: i + 1,
      minute: i,
    }));
    store.put(
      accountId,
      specs.map((s, i) => toRemote(i, s)),
    );
    const first = idx.page({ sort: 'name', limit: 10 });
    if (!first.ok) throw new Error(first.error.message);
    expect(first.value.files.at(-1)?.name).toBe('f09.pdf');
    // A new file that sorts first and a deleted one on the first page shift an offset, not a cursor.
    store.put(accountId, [toRemote(99, { stem: 'a-new', kind: 0, bucket: 0, size: 1, minute: 0 })]);
    store.remove(accountId, 1003);
    const second = idx.page({ sort: 'name', limit: 10, after: first.value.next! });
    expect(second.ok && second.value.files[0]?.name).toBe('f10.pdf');
  });

  it('bad queries are clear errors, never a crash', () => {
    const idx = createRemoteIndex(app.db).forAccount(account);
    const cases: [IndexQuery, string][] = [
      [{ after: 'not-a-cursor' }, 'after'],
      [{ sort: 'size', after: Buffer.from('["x",1]').toString('base64url') }, 'after'],
      [{ limit: 0 }, 'limit'],
      [{ bucket: 'Bad_Bucket' }, 'bucket'],
      [{ type: "image'; DROP TABLE x" }, 'type'],
      [{ extensions: ['p%'] }, 'extensions'],
      [{ from: '2026-13-45' }, 'date'],
      [{ sort: 'colour' as IndexSort }, 'sort'],
    ];
    for (const [q, word] of cases) {
      const r = idx.page(q);
      expect(r.ok, JSON.stringify(q)).toBe(false);
      if (!r.ok) {
        expect(r.error.code).toBe('VALIDATION');
        expect(r.error.message).toContain(word);
      }
    }
  });

  it('date filters are IST days, inclusive', () => {
    const store = indexStore(app.db);
    const accountId = store.accountId(account);
    const idx = createRemoteIndex(app.db).forAccount(account);
    // 2026-01-01 00:00 UTC is 05:30 IST on the 1st; 18:29 UTC is 23:59 IST; 18:30 UTC is the 2nd.
    const at = (utcMinute: number, i: number) =>
      toRemote(i, { stem: `d${i}`, kind: 0, bucket: 0, size: 1, minute: utcMinute });
    store.put(accountId, [at(0, 0), at(18 * 60 + 29, 1), at(18 * 60 + 30, 2)]);
    const day1 = idx.page({ from: '2026-01-01', to: '2026-01-01' });
    expect(day1.ok && day1.value.files.map((f) => f.id)).toEqual([1001, 1000]);
    const day2 = idx.page({ from: '2026-01-02' });
    expect(day2.ok && day2.value.files.map((f) => f.id)).toEqual([1002]);
    expect(idx.buckets()).toEqual(['alpha']);
  });
});
