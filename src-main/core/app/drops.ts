import { copyFile, rename, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { type AppError, appError, err, ok, type Result } from '../../../src-shared/errors';
import { makePrivateDir } from '../../shared-node/private-files';
import type { SyncEngine } from '../sync/engine';

/**
 * Dropped files travel the same road as folder files: they are copied into a per-bucket folder under
 * the app's data dir that the engine syncs (upload-only), so they get the same checks, queue,
 * progress, journal and retries. A name already taken there gets a " (2)" suffix, never an overwrite.
 */
export async function queueDroppedFiles(
  engine: SyncEngine,
  dataDir: string,
  paths: readonly string[],
  bucket: string,
  /** Files under this folder are the shell's own temporary copies: they are moved, not copied. */
  movableUnder?: string,
): Promise<Result<{ queued: number }, AppError>> {
  const dir = join(dataDir, 'dropped', bucket);
  makePrivateDir(dir);
  const existing = engine.listFolders().find((f) => f.path === dir);
  if (!existing) {
    const added = await engine.addFolder({ path: dir, bucket, mode: 'upload-only' });
    if (!added.ok) return added;
  }
  let queued = 0;
  for (const path of paths) {
    const info = await stat(path).catch(() => null);
    if (!info?.isFile())
      return err(
        appError(
          'DROP-NOT-A-FILE',
          `${path} is not a file that can be read (folders cannot be dropped; add them as folders).`,
        ),
      );
    const target = await freeName(dir, basename(path));
    if (movableUnder && path.startsWith(movableUnder))
      await rename(path, target).catch(() => copyFile(path, target));
    else await copyFile(path, target);
    queued++;
  }
  return ok({ queued });
}

async function freeName(dir: string, name: string): Promise<string> {
  const ext = extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let i = 1; ; i++) {
    const candidate = join(dir, i === 1 ? name : `${stem} (${i})${ext}`);
    if (!(await stat(candidate).catch(() => null))) return candidate;
  }
}
