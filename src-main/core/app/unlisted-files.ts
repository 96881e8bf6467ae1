import type { FileItem } from '../../../src-shared/contract';
import { extensionOf } from '../../../src-shared/domain/extensions';
import type { SyncEngine } from '../sync/engine';

/** A file the app made live, shown from its sync row until a listing of the service says it. */
export interface UnlistedFile {
  item: FileItem;
  /** When the row went live (this machine's clock): the order of these rows, and their date for filters. */
  liveAt: number;
  /** The URL of the version this one replaced, when this engine saw it replaced. */
  replaces: string | null;
}

export interface UnlistedFiles {
  files: UnlistedFile[];
  /** URLs of versions replaced by one of these files: the listing's copy of each is hidden. */
  superseded: Set<string>;
  /** The listing time these were read against. */
  since: number;
}

const PAGE = 1000;

/**
 * The sync rows that went live after the service's last listing. Nothing is written anywhere: the Files
 * view merges these with the listing when it reads (files-listing.ts), and a refresh that lists them
 * makes them disappear from here by itself (their live time is then older than the listing).
 *
 * Seeded once per engine from the LIVE rows newer than the listing (so a restart keeps showing what went
 * live before it), then kept by the engine's file events: only the rows that changed are read again.
 * A new version of a changed file hides the listing's copy of the version it replaced (known by the URL
 * its row had; after a restart the old copy shows until the next listing).
 */
export function createUnlistedFiles() {
  /** Built entries by row id; null until seeded for the current engine. */
  let rows: Map<number, UnlistedFile | null> | null = null;
  /** Rows whose entry must be read again (they went live, or stopped being live). */
  const dirty = new Set<number>();
  /** The URL a row had when it stopped being live (a changed file): its next version replaces it. */
  const leftLive = new Map<number, string>();
  let sorted: UnlistedFiles | null = null;

  function seed(engine: SyncEngine, since: number): Map<number, UnlistedFile | null> {
    const found = new Map<number, UnlistedFile | null>();
    for (let afterId = 0; ; ) {
      const page = engine.listFiles({ state: 'LIVE', afterId, limit: PAGE });
      for (const r of page) if (r.updatedAt > since) found.set(r.id, null);
      if (page.length < PAGE) break;
      afterId = page[page.length - 1]!.id;
    }
    for (const id of found.keys()) dirty.add(id);
    return found;
  }

  return {
    /** A new engine (another account, new settings): its rows are read afresh. */
    reset(): void {
      rows = null;
      sorted = null;
      dirty.clear();
      leftLive.clear();
    },
    /** An engine file event; true when it concerns a live file (the Files view should re-read). */
    onFile(e: { fileId: number; from: string | null; to: string; remoteUrl: string | null }): boolean {
      if (e.to !== 'LIVE' && e.from !== 'LIVE') return false;
      if (e.from === 'LIVE' && e.to !== 'LIVE' && e.remoteUrl) leftLive.set(e.fileId, e.remoteUrl);
      if (rows) {
        dirty.add(e.fileId);
        sorted = null;
      }
      return true;
    },
    /** The rows live since `listedAt` (epoch ms of the listing; null when never listed), newest first. */
    read(engine: SyncEngine, listedAt: number | null): UnlistedFiles {
      const since = listedAt ?? Number.NEGATIVE_INFINITY;
      rows ??= seed(engine, since);
      const known = rows;
      if (dirty.size > 0) {
        // One read of the folders per batch of changes (a bucket may have been renamed meanwhile).
        const buckets = new Map(engine.listFolders().map((f) => [f.id, f.bucket]));
        for (const id of dirty) {
          const row = engine.getFile(id);
          if (row?.state !== 'LIVE' || row.remoteId === null || !row.remoteUrl) {
            known.delete(id);
            continue;
          }
          const replaced = leftLive.get(id);
          known.set(id, {
            liveAt: row.updatedAt,
            replaces: replaced !== undefined && replaced !== row.remoteUrl ? replaced : null,
            item: {
              id: row.remoteId,
              url: row.remoteUrl,
              bucket: buckets.get(row.folderId) ?? '',
              name: row.name,
              extension: extensionOf(row.name),
              mime: null,
              size_bytes: row.remoteSize ?? row.size ?? 0,
              hash: row.remoteMd5 ?? row.md5 ?? '',
              status: 'ACTIVE',
              created_at: null,
              listed: false,
            },
          });
        }
        dirty.clear();
        sorted = null;
      }
      if (sorted?.since === since) return sorted;
      const files: UnlistedFile[] = [];
      const superseded = new Set<string>();
      for (const [id, f] of known) {
        // Listed since: the listing speaks for it now.
        if (!f || f.liveAt <= since) {
          known.delete(id);
          leftLive.delete(id);
          continue;
        }
        files.push(f);
        if (f.replaces !== null) superseded.add(f.replaces);
      }
      files.sort((a, b) => b.liveAt - a.liveAt || b.item.id - a.item.id);
      sorted = { files, superseded, since };
      return sorted;
    },
  };
}
