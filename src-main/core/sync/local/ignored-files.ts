import ignore from 'ignore';
import { z } from 'zod';
import { answersAs, type IgnoreTest } from './ignore-rules';

/**
 * What the last scan of each folder left out, so a user can find out why a file never went up. Kept
 * in memory and bounded: the count of every ignored entry, and the first EXAMPLES of them with the
 * rule that ignored each (a folder with 100,000 cache files costs 200 rows, not 100,000). An ignored
 * folder is one entry: its contents are never walked.
 */
export const IGNORED_EXAMPLES = 200;

export interface IgnoredEntry {
  path: string;
  isDirectory: boolean;
  rule: string;
}

export interface IgnoredList {
  count: number;
  examples: IgnoredEntry[];
  /** Epoch ms when the scan that made the list finished. */
  scannedAt: number;
}

export interface IgnoredRegistry {
  /** Wraps a folder's ignore test for one scan; the list replaces the last one when `finish` is called. */
  track(
    folderId: number,
    userPatterns: string,
    test: IgnoreTest,
  ): { test: IgnoreTest; finish(at: number): void };
  get(folderId: number): IgnoredList | null;
  /** The list a scan kept with its mark (scanner.ts), as JSON, when a later scan found the same walk. */
  restore(folderId: number, json: string, at: number): void;
  drop(folderId: number): void;
}

const savedList = z.object({
  count: z.number().int().nonnegative(),
  examples: z.array(z.object({ path: z.string(), isDirectory: z.boolean(), rule: z.string() })),
});

export function ignoredRegistry(): IgnoredRegistry {
  const lists = new Map<number, IgnoredList>();
  return {
    track(folderId, userPatterns, test) {
      let count = 0;
      const examples: IgnoredEntry[] = [];
      return {
        test: answersAs((relPath, isDirectory = false) => {
          const ignored = test(relPath, isDirectory);
          if (ignored) {
            count++;
            if (examples.length < IGNORED_EXAMPLES)
              examples.push({
                path: relPath,
                isDirectory,
                rule: ignoreRuleOf(relPath, isDirectory, userPatterns),
              });
          }
          return ignored;
        }, test),
        finish(at) {
          lists.set(folderId, { count, examples, scannedAt: at });
        },
      };
    },
    get: (folderId) => lists.get(folderId) ?? null,
    restore(folderId, json, at) {
      // Read from the database: a list that does not parse is left out, as if never scanned.
      let parsed: unknown;
      try {
        parsed = JSON.parse(json);
      } catch {
        return;
      }
      const list = savedList.safeParse(parsed);
      if (list.success) lists.set(folderId, { ...list.data, scannedAt: at });
    },
    drop: (folderId) => void lists.delete(folderId),
  };
}

/**
 * The rule that ignores a path, in words. Built-in rules first (ignore-rules.ts, BUILT_IN_PATTERNS), then
 * the folder's own pattern that matches, quoted. Asked only for the examples kept, so its cost is bounded.
 */
export function ignoreRuleOf(relPath: string, isDirectory: boolean, userPatterns = ''): string {
  const base = (relPath.split('/').pop() ?? relPath).toLowerCase();
  const what = isDirectory ? 'folder' : 'file';
  if (base === '.ds_store' || base === 'thumbs.db') return 'system file (Finder or Explorer thumbnails)';
  if (base.startsWith('.')) return `hidden ${what} (starts with a dot)`;
  if (base.startsWith('~$')) return 'Office lock file (starts with ~$)';
  if (base.endsWith('.tmp')) return 'temporary file (.tmp)';
  if (base.endsWith('.part') || base.endsWith('.crdownload'))
    return 'download in progress (.part, .crdownload)';
  const target = isDirectory ? `${relPath}/` : relPath;
  for (const line of userPatterns.split(/\r?\n/)) {
    const pattern = line.trim();
    if (pattern === '' || pattern.startsWith('#') || pattern.startsWith('!')) continue;
    try {
      if (ignore({ ignorecase: true }).add(pattern).ignores(target)) return `your pattern "${pattern}"`;
    } catch {
      // A pattern that cannot be read ignores nothing (validatePatterns refuses it when saved).
    }
  }
  return 'your ignore patterns';
}
