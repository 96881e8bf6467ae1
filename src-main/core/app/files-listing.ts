import type { RemoteFile } from '../../../src-shared/api/file-hosting';
import type { FileItem, FilesQuery } from '../../../src-shared/contract';
import { formatIstMinute, parseIst } from '../../../src-shared/domain/ist-time';
import type { Db } from '../../shared-node/sqlite';
import type { ServiceCache } from '../service/cache';
import type { UnlistedFiles } from './unlisted-files';

const PER_PAGE = 100;
/** The stamp of a listing never read from the server (files only known from this app's uploads). */
const NEVER = new Date(0);

interface Listing {
  pages: RemoteFile[][];
  pageOf: Map<number, number>;
  fetchedAt: Date;
  /** Newest first; rebuilt after a change, so scrolling pages through it costs a slice. */
  sorted: RemoteFile[] | null;
}

/**
 * The searchable copy of the server's files listing, kept in the service layer's offline cache
 * (`service_cache`, kind `files`) as pages of 100, and held in memory once read so that search,
 * filters and scrolling through 10,000 files cost neither requests nor a re-read. It holds only what
 * the service said (a listing, an upload from a URL, a delete it confirmed): files the sync engine made
 * live since are merged in when the view reads (`unlisted`), never written here.
 */
export function createFilesListing(db: Db, cache: ServiceCache) {
  const loaded = new Map<string, Listing>();

  const scope = (page: number) => ({ page, perPage: PER_PAGE });
  const total = (l: Listing) => l.pages.reduce((n, p) => n + p.length, 0);
  const writePage = (source: string, l: Listing, index: number) =>
    cache.putFiles(
      source,
      scope(index + 1),
      {
        files: l.pages[index] ?? [],
        meta: { page: index + 1, per_page: PER_PAGE, total: total(l), last_page: l.pages.length },
      },
      l.fetchedAt,
    );

  function load(source: string): Listing {
    const known = loaded.get(source);
    if (known) return known;
    const first = cache.getFiles(source, scope(1));
    const listing: Listing = {
      pages: [],
      pageOf: new Map(),
      fetchedAt: first ? new Date(first.fetchedAt) : NEVER,
      sorted: null,
    };
    const lastPage = first?.value.meta.last_page ?? 0;
    for (let p = 1; p <= lastPage; p++) {
      // A page that no longer parses (an older app version) is a miss: the next refresh rewrites all.
      const files = (p === 1 ? first : cache.getFiles(source, scope(p)))?.value.files ?? [];
      for (const f of files) listing.pageOf.set(f.id, p - 1);
      listing.pages.push(files);
    }
    loaded.set(source, listing);
    return listing;
  }

  return {
    /** Replaces the whole listing in one transaction: a refresh cut short leaves the old copy whole. */
    replaceFiles(source: string, files: readonly RemoteFile[], fetchedAt: number): void {
      const listing: Listing = { pages: [], pageOf: new Map(), fetchedAt: new Date(fetchedAt), sorted: null };
      for (let i = 0; i < files.length; i += PER_PAGE) listing.pages.push(files.slice(i, i + PER_PAGE));
      listing.pages.forEach((page, i) => {
        for (const f of page) listing.pageOf.set(f.id, i);
      });
      db.transaction(() => {
        if (listing.pages.length === 0) listing.pages.push([]);
        for (let i = 0; i < listing.pages.length; i++) writePage(source, listing, i);
      })();
      loaded.set(source, listing);
    },
    upsertFile(source: string, file: RemoteFile): void {
      const l = load(source);
      l.sorted = null;
      const at = l.pageOf.get(file.id);
      if (at !== undefined) {
        l.pages[at] = l.pages[at]!.map((f) => (f.id === file.id ? file : f));
        writePage(source, l, at);
        return;
      }
      const last = l.pages.length - 1;
      const index = last >= 0 && l.pages[last]!.length < PER_PAGE ? last : l.pages.length;
      l.pages[index] = [...(l.pages[index] ?? []), file];
      l.pageOf.set(file.id, index);
      db.transaction(() => {
        writePage(source, l, index);
        // Page 1 carries the page count the next start reads.
        if (index > 0 && index !== last) writePage(source, l, 0);
      })();
    },
    removeFile(source: string, id: number): void {
      const l = load(source);
      const at = l.pageOf.get(id);
      if (at === undefined) return;
      l.sorted = null;
      l.pages[at] = l.pages[at]!.filter((f) => f.id !== id);
      l.pageOf.delete(id);
      writePage(source, l, at);
    },
    /** Epoch ms of the last full read from the server; null when never read. */
    filesFetchedAt(source: string): number | null {
      const t = load(source).fetchedAt.getTime();
      return t === NEVER.getTime() ? null : t;
    },
    buckets(source: string, unlisted?: UnlistedFiles): string[] {
      const set = new Set<string>();
      for (const page of load(source).pages) for (const f of page) set.add(f.bucket);
      for (const u of unlisted?.files ?? []) set.add(u.item.bucket);
      return [...set].sort();
    },
    /**
     * Newest first, filtered like the Files view asks: the files live since the listing (unlisted, by
     * the time they went live), then the listing (created_at, then id) without the versions they replace.
     */
    queryFiles(
      source: string,
      q: Required<Pick<FilesQuery, 'offset' | 'limit'>> & FilesQuery,
      unlisted: UnlistedFiles = { files: [], superseded: new Set(), since: 0 },
    ): { total: number; rows: FileItem[] } {
      const search = q.search?.trim().toLowerCase();
      const from = q.from ? `${q.from} 00:00` : null;
      const to = q.to ? `${q.to} 23:59` : null;
      const l = load(source);
      l.sorted ??= l.pages.flat().sort(newestFirst);
      const fits = (f: { bucket: string; name: string; size_bytes: number }, date: string) => {
        if (q.bucket && f.bucket !== q.bucket) return false;
        if (search && !f.name.toLowerCase().includes(search)) return false;
        if (q.minBytes !== undefined && f.size_bytes < q.minBytes) return false;
        if (q.maxBytes !== undefined && f.size_bytes > q.maxBytes) return false;
        return !(from && date < from) && !(to && date > to);
      };
      const extra = unlisted.files.filter(
        (u) => !l.pageOf.has(u.item.id) && fits(u.item, formatIstMinute(u.liveAt)),
      );
      const listed = l.sorted.filter(
        (f) => !unlisted.superseded.has(f.url) && fits(f, sortableDate(f.created_at)),
      );
      const start = q.offset;
      const end = q.offset + q.limit;
      const rows: FileItem[] = [
        ...extra.slice(start, end).map((u) => u.item),
        ...listed
          .slice(Math.max(0, start - extra.length), Math.max(0, end - extra.length))
          .map((f) => ({ ...f, listed: true })),
      ];
      return { total: extra.length + listed.length, rows };
    },
    /** Drops the copy held in memory (the rows in the service cache were cleared by its owner). */
    forget(source: string): void {
      loaded.delete(source);
    },
  };
}
export type FilesListing = ReturnType<typeof createFilesListing>;

function newestFirst(a: RemoteFile, b: RemoteFile): number {
  const da = sortableDate(a.created_at);
  const dbb = sortableDate(b.created_at);
  return da !== dbb ? (da < dbb ? 1 : -1) : b.id - a.id;
}

/** `created_at` is `YYYY-MM-DD HH:MM` IST, which already sorts as text; anything else sorts first. */
function sortableDate(text: string): string {
  return parseIst(text) === null ? '0000-00-00 00:00' : text;
}
