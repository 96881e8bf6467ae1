import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type AppError, appError, err, ok, type Result } from '../../src-shared/errors';

/**
 * Data folders and database files are the owner's only: the app's holds leads' personal data, the
 * sandbox's the demo bot's signing secret. Modes are set with chmod, because mkdir's and open's are
 * cut by the umask and leave an existing folder or file as it was (older versions made them
 * 0755/0644). But a folder is tightened only when it is the app's: one it created, or one that holds
 * its database already (openDataDir); a folder someone else shares is refused, never chmod'ed.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates the folder owner-only, and any missing parents too (each one the app made). An existing
 * one is tightened when `tighten` (a subfolder of a data folder: the app's own); a command that only
 * reads leaves every mode as it is.
 */
export function makePrivateDir(dir: string, tighten = true): void {
  const first = mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (first === undefined) {
    if (tighten) chmodSync(dir, PRIVATE_DIR_MODE);
    return;
  }
  // mkdir's mode is cut by the umask: each folder made here is set whatever the umask was.
  for (let d = dir; ; d = dirname(d)) {
    chmodSync(d, PRIVATE_DIR_MODE);
    if (d === first || dirname(d) === d) break;
  }
}

/**
 * Makes `dir` ready to be a data folder holding `database` (a file name): created owner-only when
 * missing; refused when it is not the user's own (another user's, or a shared folder such as /tmp:
 * world-writable or sticky), since the app would put private data where others can reach, and a
 * chmod would lock them out; tightened to 0700 when `tighten` and it holds the database already
 * (an older version's folder). A folder of the user's without the database is used as it is.
 */
export function openDataDir(dir: string, database: string, tighten: boolean): Result<void, AppError> {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(dir, { throwIfNoEntry: false });
    if (!st) {
      makePrivateDir(dir);
      return ok(undefined);
    }
  } catch (e) {
    return err(appError('DATA-DIR', `The data folder ${dir} cannot be made: ${(e as Error).message}`));
  }
  if (!st.isDirectory())
    return err(appError('DATA-DIR', `The data folder ${dir} is not a folder. Give --data-dir a folder.`));
  const mode = Number(st.mode);
  if (process.platform !== 'win32') {
    const me = process.getuid?.();
    if (me !== undefined && Number(st.uid) !== me)
      return err(
        appError(
          'DATA-DIR-FOREIGN',
          `The data folder ${dir} belongs to another user (uid ${st.uid}; you are uid ${me}). The app keeps private data there and will not take over someone else's folder: give --data-dir a folder of your own (a new one is made private).`,
        ),
      );
    if (mode & 0o1002)
      return err(
        appError(
          'DATA-DIR-SHARED',
          `The data folder ${dir} is shared (mode ${(mode & 0o7777).toString(8)}: ${mode & 0o002 ? 'every user may write in it' : 'sticky'}), as /tmp is. The app keeps private data there and will not use or change a shared folder: give --data-dir a folder of your own (a new one is made private).`,
        ),
      );
  }
  try {
    if (tighten && (mode & 0o777) !== PRIVATE_DIR_MODE && existsSync(join(dir, database)))
      chmodSync(dir, PRIVATE_DIR_MODE);
  } catch (e) {
    return err(
      appError('DATA-DIR', `The data folder ${dir} cannot be made private: ${(e as Error).message}`),
    );
  }
  return ok(undefined);
}

/** Creates the file empty and owner-only if missing; tightens it if it exists and `tighten`. */
export function makePrivateFile(file: string, tighten = true): void {
  if (!existsSync(file)) {
    closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
    chmodSync(file, PRIVATE_FILE_MODE);
  } else if (tighten) chmodSync(file, PRIVATE_FILE_MODE);
}

/** Tightens the file if it exists (a database's -wal and -shm come and go). */
export function tightenIfPresent(file: string): void {
  if (existsSync(file)) chmodSync(file, PRIVATE_FILE_MODE);
}
