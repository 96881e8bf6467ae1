import ignore from 'ignore';

/**
 * Which paths of a folder are never synced: dotfiles (and anything under a dot-folder), temporary and
 * partial files that editors and browsers leave while writing, plus the folder's own gitignore-style
 * patterns. Paths are relative to the folder, '/'-separated.
 */
export const BUILT_IN_PATTERNS = ['.*', '~$*', '*.tmp', '*.part', '*.crdownload', '.DS_Store', 'Thumbs.db'];

export type IgnoreTest = (relPath: string, isDirectory?: boolean) => boolean;

export function ignoreRules(userPatterns = ''): IgnoreTest {
  if (!hasPatterns(userPatterns)) return builtInOnly;
  const ig = ignore({ ignorecase: true }).add(BUILT_IN_PATTERNS).add(userPatterns);
  return (relPath, isDirectory = false) => {
    if (relPath === '' || relPath === '.') return false;
    return ig.ignores(isDirectory ? `${relPath}/` : relPath);
  };
}

/**
 * BUILT_IN_PATTERNS by hand, for folders without patterns of their own (the common case): the same
 * answers as the `ignore` matcher (test/sync/ignore-rules.test.ts), at a tenth of its cost per path,
 * which showed in scans of 100,000 files. Each pattern has no slash, so it applies to any component.
 * Components are looked at in place (no split, no lowercased copy): a scan asks once per file.
 */
const builtInOnly: IgnoreTest = (relPath) => {
  if (relPath === '' || relPath === '.') return false;
  for (let start = 0; ; ) {
    const slash = relPath.indexOf('/', start);
    const end = slash < 0 ? relPath.length : slash;
    if (end > start && builtInIgnores(relPath, start, end)) return true;
    if (slash < 0) return false;
    start = slash + 1;
  }
};

const byNameAlone = new WeakSet<IgnoreTest>([builtInOnly]);

/** Whether the component path[start, end) matches a built-in pattern. */
function builtInIgnores(path: string, start: number, end: number): boolean {
  const first = path.charCodeAt(start);
  if (first === DOT) return true;
  if (first === TILDE && end - start >= 2 && path.charCodeAt(start + 1) === DOLLAR) return true;
  return (
    endsWithAscii(path, start, end, '.tmp') ||
    endsWithAscii(path, start, end, '.part') ||
    endsWithAscii(path, start, end, '.crdownload') ||
    (end - start === 9 && endsWithAscii(path, start, end, 'thumbs.db'))
  );
}

/** Whether a folder's rules are the built-in ones alone (so a file is judged by its own name). */
export const builtInRulesOnly = (test: IgnoreTest): boolean => byNameAlone.has(test);

/**
 * Marks `wrapper` as answering what `inner` answers (ignored-files.ts wraps a folder's test to count
 * what it leaves out), so the scanner's fast path still knows the built-in rules through it.
 */
export function answersAs(wrapper: IgnoreTest, inner: IgnoreTest): IgnoreTest {
  if (byNameAlone.has(inner)) byNameAlone.add(wrapper);
  return wrapper;
}

/**
 * builtInIgnores() for a name in UTF-8 bytes[start, end), for the scanner's fast path (list-tree.ts),
 * which reads find's output without making strings. Every byte of a non-ASCII character is 0x80 or
 * above, so none matches the ASCII of a pattern: the answers are the string version's (tested).
 */
export function builtInIgnoresUtf8(bytes: Uint8Array, start: number, end: number): boolean {
  if (end <= start) return false;
  const first = bytes[start];
  if (first === DOT) return true;
  if (first === TILDE && end - start >= 2 && bytes[start + 1] === DOLLAR) return true;
  return (
    endsWithAsciiUtf8(bytes, start, end, '.tmp') ||
    endsWithAsciiUtf8(bytes, start, end, '.part') ||
    endsWithAsciiUtf8(bytes, start, end, '.crdownload') ||
    (end - start === 9 && endsWithAsciiUtf8(bytes, start, end, 'thumbs.db'))
  );
}

function endsWithAsciiUtf8(bytes: Uint8Array, start: number, end: number, suffix: string): boolean {
  const from = end - suffix.length;
  if (from < start) return false;
  for (let i = 0; i < suffix.length; i++) {
    const c = bytes[from + i]!;
    if ((c >= 0x41 && c <= 0x5a ? c + 0x20 : c) !== suffix.charCodeAt(i)) return false;
  }
  return true;
}

const DOT = 0x2e;
const TILDE = 0x7e;
const DOLLAR = 0x24;

/**
 * Whether path[start, end) ends with `suffix` (lowercase ASCII), ignoring ASCII case. No other
 * character lowercases to one of these letters, so this answers as toLowerCase().endsWith() did.
 */
function endsWithAscii(path: string, start: number, end: number, suffix: string): boolean {
  const from = end - suffix.length;
  if (from < start) return false;
  for (let i = 0; i < suffix.length; i++) {
    const c = path.charCodeAt(from + i);
    // 'A'-'Z' to 'a'-'z'; everything else as it is.
    if ((c >= 0x41 && c <= 0x5a ? c + 0x20 : c) !== suffix.charCodeAt(i)) return false;
  }
  return true;
}

const hasPatterns = (text: string) =>
  text.split(/\r?\n/).some((line) => line.trim() !== '' && !line.trimStart().startsWith('#'));

/** Checks patterns before they are stored, so a typo is reported when the folder is saved, not later. */
export function validatePatterns(userPatterns: string): string | null {
  try {
    ignore().add(userPatterns);
    return null;
  } catch (e) {
    return `Ignore patterns could not be read: ${e instanceof Error ? e.message : String(e)}`;
  }
}
