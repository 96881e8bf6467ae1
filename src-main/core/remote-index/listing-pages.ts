import type { RemoteFile } from '../../../src-shared/api/file-hosting';
import { PER_PAGE_MAX } from '../../../src-shared/domain/limits';
import type { ApiError } from '../service/api-error';
import type { FileApiClient } from '../service/file-api-client';
import type { Lane } from '../service/request-budget';

/** One page of the listing as a pass reads it. */
export interface ListedPage {
  /** The page number it was read at. */
  page: number;
  /** Newest first, as the service lists them; never empty. */
  files: RemoteFile[];
  newest: number;
  oldest: number;
  /**
   * Ids strictly between this page's newest and the oldest id covered before it (exclusive bounds),
   * null when the page reaches into what was covered. No live file had such an id when the pages
   * were read, unless a delete elsewhere shifted one past the reader: a walk checks them one by one.
   */
  gap: { above: number; below: number } | null;
  /** The last page of the listing (not full): nothing older follows. */
  last: boolean;
  /** The listing's `meta.total` when the page was read: every live file of the account. */
  total: number;
}

export type PageRead =
  | { ok: true; page: ListedPage }
  | { ok: true; page: null }
  | { ok: false; error: ApiError };

export interface ReadOptions {
  lane: Lane;
  signal?: AbortSignal;
  /** Called for every listing request with its reply (the pass counts its requests). */
  onRequest?: () => void;
}

/**
 * Reads the listing downward, page by page (100 a page, newest first by id), from a place a pass
 * remembered: the page it was at and the oldest id it had covered. Files come and go meanwhile (an
 * upload shifts every later file one place on, a delete one place back), so a remembered page is only
 * a guess: the reader reads it, moves on when it holds only covered ids, moves back while it may
 * have skipped some, and then goes on page after page. `next()` answers null after the last page.
 */
export function listingReader(
  client: FileApiClient,
  start: { page: number; below: number | null },
  o: ReadOptions,
) {
  let page = Math.max(1, start.page);
  /** The oldest id read or covered so far; null before the first page. */
  let below = start.below;
  let located = start.below === null;
  let done = false;

  async function fetch(p: number) {
    o.onRequest?.();
    return client.listFiles({
      page: p,
      perPage: PER_PAGE_MAX,
      lane: o.lane,
      ...(o.signal ? { signal: o.signal } : {}),
    });
  }

  const shape = (p: number, files: RemoteFile[], total: number): ListedPage => ({
    page: p,
    files,
    newest: files[0]!.id,
    oldest: files.at(-1)!.id,
    gap: below !== null && files[0]!.id < below - 1 ? { above: files[0]!.id, below } : null,
    // A full last page is not trusted to be the end: an upload meanwhile pushes its oldest file on.
    last: files.length < PER_PAGE_MAX,
    total,
  });

  /** The first page that holds ids below `below`, stepping back while an earlier page may hold some. */
  async function locate(): Promise<PageRead> {
    const limit = below!;
    /** A page read just after the current one, known to hold only ids below the limit. */
    let after: { p: number; files: RemoteFile[]; total: number } | null = null;
    let movedOn = false;
    for (;;) {
      const r = await fetch(page);
      if (!r.ok) return r;
      const { files, meta } = r.value;
      if (files.length === 0) {
        if (page > 1 && page > meta.last_page) {
          page = meta.last_page;
          continue;
        }
        return { ok: true, page: null };
      }
      const newest = files[0]!.id;
      const oldest = files.at(-1)!.id;
      if (oldest >= limit) {
        // Every file here is covered: the wanted ones come after. The page after touches this one.
        if (after) return { ok: true, page: shape(after.p, after.files, after.total) };
        if (page >= meta.last_page) return { ok: true, page: null };
        page++;
        movedOn = true;
        continue;
      }
      if (newest < limit && page > 1 && !movedOn) {
        // Files between the limit and this page may sit on the page before (deletes moved them back).
        after = { p: page, files, total: meta.total };
        page--;
        continue;
      }
      return { ok: true, page: shape(page, files, meta.total) };
    }
  }

  return {
    /** The next page of older files, or null once the listing is read to its end. */
    async next(): Promise<PageRead> {
      if (done) return { ok: true, page: null };
      let read: PageRead;
      if (!located) {
        located = true;
        read = await locate();
      } else {
        const r = await fetch(page);
        if (!r.ok) return r;
        const { files, meta } = r.value;
        read =
          files.length === 0 ? { ok: true, page: null } : { ok: true, page: shape(page, files, meta.total) };
      }
      if (!read.ok) return read;
      if (read.page === null) {
        done = true;
        return read;
      }
      below = below === null ? read.page.oldest : Math.min(below, read.page.oldest);
      page = read.page.page + 1;
      if (read.page.last) done = true;
      return read;
    },
    /** Where to resume: the next page to read and the oldest id covered. */
    get position(): { page: number; below: number | null } {
      return { page, below };
    },
  };
}
