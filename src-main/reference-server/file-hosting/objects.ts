import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { PRIVATE_DIR_MODE } from '../../shared-node/private-files';

/**
 * Stored objects on disk. Bytes arrive in a temp file (same file system) and are renamed into place only
 * once every check has passed, so a half-received or refused upload never becomes an object. Object keys
 * are generated (`<client id>/<random hex>`), never taken from a file name, so no name can escape the folder.
 */
export interface ObjectStore {
  /** A fresh temp file path for an incoming upload. */
  tempPath(): string;
  newKey(clientId: number): string;
  pathOf(key: string): string;
  /** Moves a received temp file into place under `key`. */
  commit(tempFile: string, key: string): Promise<void>;
  remove(pathOrKey: { key: string } | { temp: string }): Promise<void>;
}

export function objectStore(objectsDir: string, tempDir: string): ObjectStore {
  // Temp files left by a crash are never part of a stored file.
  rmSync(tempDir, { recursive: true, force: true });
  mkdirSync(tempDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const pathOf = (key: string) => join(objectsDir, ...key.split('/'));
  return {
    tempPath: () => join(tempDir, `${randomBytes(12).toString('hex')}.part`),
    newKey: (clientId) => `${clientId}/${randomBytes(12).toString('hex')}`,
    pathOf,
    async commit(tempFile, key) {
      const target = pathOf(key);
      await mkdir(join(target, '..'), { recursive: true, mode: PRIVATE_DIR_MODE });
      await rename(tempFile, target);
    },
    async remove(what) {
      await rm('key' in what ? pathOf(what.key) : what.temp, { force: true });
    },
  };
}
