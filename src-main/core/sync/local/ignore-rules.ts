import ignore from 'ignore';

/**
 * Which paths of a folder are never synced: dotfiles (and anything under a dot-folder), temporary and
 * partial files that editors and browsers leave while writing, plus the folder's own gitignore-style
 * patterns. Paths are relative to the folder, '/'-separated.
 */
export const BUILT_IN_PATTERNS = ['.*', '~$*', '*.tmp', '*.part', '*.crdownload', '.DS_Store', 'Thumbs.db'];

export type IgnoreTest = (relPath: string, isDirectory?: boolean) => boolean;

export function ignoreRules(userPatterns = ''): IgnoreTest {
  const ig = ignore({ ignorecase: true }).add(BUILT_IN_PATTERNS).add(userPatterns);
  return (relPath, isDirectory = false) => {
    if (relPath === '' || relPath === '.') return false;
    return ig.ignores(isDirectory ? `${relPath}/` : relPath);
  };
}

/** Checks patterns before they are stored, so a typo is reported when the folder is saved, not later. */
export function validatePatterns(userPatterns: string): string | null {
  try {
    ignore().add(userPatterns);
    return null;
  } catch (e) {
    return `Ignore patterns could not be read: ${e instanceof Error ? e.message : String(e)}`;
  }
}
