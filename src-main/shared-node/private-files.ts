import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';

/**
 * Data folders and database files are the owner's only: the app's holds leads' personal data, the
 * sandbox's the demo bot's signing secret. Modes are set with chmod, because mkdir's and open's are
 * cut by the umask and leave an existing folder or file as it was (older versions made them
 * 0755/0644).
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates the folder (and missing parents) owner-only, and tightens it if it already existed. */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(dir, PRIVATE_DIR_MODE);
}

/** Creates the file empty and owner-only if missing; tightens it if it exists. */
export function makePrivateFile(file: string): void {
  if (!existsSync(file)) closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  chmodSync(file, PRIVATE_FILE_MODE);
}

/** Tightens the file if it exists (a database's -wal and -shm come and go). */
export function tightenIfPresent(file: string): void {
  if (existsSync(file)) chmodSync(file, PRIVATE_FILE_MODE);
}
