import type { AccountIndex } from './remote-index';

/** An entry's text as the knowledge-entry store holds it (core/kb `LocalEntry` has these fields). */
export interface EntryText {
  id: number;
  botId: number;
  title: string;
  description: string;
}

/** A file this app keeps live (a sync row): its local path, as the service's name, and its URL. */
export interface SyncedFile {
  name: string;
  remoteId: number;
  remoteUrl: string;
}

/**
 * LIVE: the URL is a live file of the account. GONE: it is not (deleted, or replaced by a version
 * whose URL could not be found). REPLACED: gone, but a newer version of the same file is live at
 * `currentUrl`. UNKNOWN: not in the index while the index is not complete yet.
 */
export type LinkStatus = 'LIVE' | 'GONE' | 'REPLACED' | 'UNKNOWN';

export interface EntryLink {
  url: string;
  status: LinkStatus;
  /** The file the URL names, while it is live. */
  fileId: number | null;
  /** REPLACED: the newer version's URL, to put in its place. */
  currentUrl: string | null;
}

export interface EntryLinks {
  entryId: number;
  botId: number;
  title: string;
  links: EntryLink[];
}

// A URL in running text: up to whitespace, quotes or brackets; a full stop or comma after it is the sentence's.
const URL_IN_TEXT = /https?:\/\/[^\s<>"'()[\]{}]+/g;
const TRAILING = /[.,;:!?]+$/;

/**
 * The parts of a CDN URL: `{cdn}/storage/<client_id>/<bucket>/<stamp>-<filename>` (the API document's
 * form). `fileName` is the part after the stamp as written in the URL (still percent-encoded): two
 * versions of one file differ only in their stamp.
 */
function cdnParts(url: URL): { clientId: number; bucket: string; fileName: string } | null {
  const m = /^\/storage\/(\d+)\/([^/]+)\/([^/]+)$/.exec(url.pathname);
  if (!m) return null;
  const last = m[3]!;
  const dash = last.indexOf('-');
  return { clientId: Number(m[1]), bucket: m[2]!, fileName: dash >= 0 ? last.slice(dash + 1) : last };
}

const versionKey = (bucket: string, fileName: string) => `${bucket}/${fileName}`;

/**
 * Knowledge entries that cite this account's CDN URLs (a price list, a brochure) answer with a dead
 * link once the file is deleted or replaced by a new version (the engine deletes the old copy after
 * a change). This finds those URLs in entry texts, tells which are no longer live (by the remote
 * index, no request), offers the newer version's URL (same bucket and file name in its URL, which
 * for synced files is the same local path: the sync rows are asked first), replaces them in one
 * step, and names the entries a delete would break before it is sent.
 */
export function createLinkIntegrity(o: {
  index: AccountIndex;
  /** Files this app keeps live (e.g. `engine.listFiles({ state: 'LIVE' })`), read once per check. */
  syncedFiles?: () => Iterable<SyncedFile>;
  /** CDN origins of the account besides the one its indexed URLs show (e.g. an older sandbox port). */
  cdnOrigins?: readonly string[];
}) {
  const { index } = o;

  function origins(): Set<string> {
    const set = new Set(o.cdnOrigins ?? []);
    const newest = index.page({ limit: 1 });
    if (newest.ok && newest.value.files[0]) set.add(new URL(newest.value.files[0].url).origin);
    return set;
  }

  /** The account's CDN URLs in a text, in order, each once. */
  function urlsIn(text: string, known: Set<string>): string[] {
    const out: string[] = [];
    for (const m of text.matchAll(URL_IN_TEXT)) {
      const raw = m[0].replace(TRAILING, '');
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        continue;
      }
      const parts = cdnParts(url);
      if (!parts || parts.clientId !== index.account.clientId || !known.has(url.origin)) continue;
      if (!out.includes(raw)) out.push(raw);
    }
    return out;
  }

  /** Where each file name lives now: synced files first (this app's own versions), then the index. */
  function currentVersions(): (bucket: string, fileName: string) => string | null {
    const synced = new Map<string, string>();
    for (const f of o.syncedFiles?.() ?? []) {
      const parts = cdnParts(new URL(f.remoteUrl));
      if (parts) synced.set(versionKey(parts.bucket, parts.fileName), f.remoteUrl);
    }
    return (bucket, fileName) => {
      const mine = synced.get(versionKey(bucket, fileName));
      if (mine) return mine;
      // The newest live file of that bucket whose URL ends in the same file name.
      for (const url of index.urlsEndingWith(bucket, `-${fileName}`)) {
        if (cdnParts(new URL(url))?.fileName === fileName) return url;
      }
      return null;
    };
  }

  function check(entries: Iterable<EntryText>): EntryLinks[] {
    const known = origins();
    const newest = index.page({ limit: 1 });
    const indexOrigin = newest.ok && newest.value.files[0] ? new URL(newest.value.files[0].url).origin : null;
    // A URL written when the CDN had another origin (cdnOrigins) names the same file at today's.
    const sameOnIndexOrigin = (url: string) => {
      const u = new URL(url);
      return indexOrigin ? `${indexOrigin}${u.pathname}${u.search}` : url;
    };
    const complete = index.status().complete;
    let versions: ReturnType<typeof currentVersions> | null = null;
    const out: EntryLinks[] = [];
    for (const e of entries) {
      const urls = urlsIn(`${e.title}\n${e.description}`, known);
      if (urls.length === 0) continue;
      const links = urls.map((url): EntryLink => {
        const live = index.byUrl(url) ?? index.byUrl(sameOnIndexOrigin(url));
        if (live) return { url, status: 'LIVE', fileId: live.id, currentUrl: null };
        const parts = cdnParts(new URL(url))!;
        versions ??= currentVersions();
        const current = versions(parts.bucket, parts.fileName);
        if (current && current !== url) return { url, status: 'REPLACED', fileId: null, currentUrl: current };
        return { url, status: complete ? 'GONE' : 'UNKNOWN', fileId: null, currentUrl: null };
      });
      out.push({ entryId: e.id, botId: e.botId, title: e.title, links });
    }
    return out;
  }

  return {
    /** The account's CDN URLs in a text (what `check` looks at). */
    urlsIn: (text: string) => urlsIn(text, origins()),

    /** Every entry that cites this account's files, each cited URL with its status. */
    check,

    /** Entries with a link that is not live (GONE or REPLACED): what the UI marks. */
    broken(entries: Iterable<EntryText>): EntryLinks[] {
      return check(entries).filter((e) =>
        e.links.some((l) => l.status === 'GONE' || l.status === 'REPLACED'),
      );
    },

    /**
     * The entry's text with every REPLACED link swapped for the current URL ("replace with the current
     * URL", one action); null when nothing is to replace. The caller saves it (kb entries' edit).
     */
    fix(entry: EntryText): { title: string; description: string } | null {
      const [found] = check([entry]);
      const swaps = found?.links.filter((l) => l.status === 'REPLACED' && l.currentUrl) ?? [];
      if (swaps.length === 0) return null;
      let { title, description } = entry;
      for (const l of swaps) {
        title = title.split(l.url).join(l.currentUrl!);
        description = description.split(l.url).join(l.currentUrl!);
      }
      return { title, description };
    },

    /**
     * Before a delete (one file, a bulk selection, a mirror folder's local delete): the entries that
     * cite any of these files, and which of their URLs would break.
     */
    entriesBrokenBy(fileIds: Iterable<number>, entries: Iterable<EntryText>): EntryLinks[] {
      const ids = new Set(fileIds);
      return check(entries)
        .map((e) => ({ ...e, links: e.links.filter((l) => l.fileId !== null && ids.has(l.fileId)) }))
        .filter((e) => e.links.length > 0);
    },
  };
}

export type LinkIntegrity = ReturnType<typeof createLinkIntegrity>;
