import { createWriteStream } from 'node:fs';
import { lstat, rename, stat } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { type AppError, appError, err, ok, type Result } from '../../../src-shared/errors';
import { makePrivateDir } from '../../shared-node/private-files';
import type { SyncEngine } from '../sync/engine';
import { type Inspection, inspectPath, isInside, type LinkScope } from '../sync/local/inspect';
import { openInFolder } from '../sync/local/open-in-folder';

/**
 * Dropped files travel the same road as folder files: they are copied into a per-bucket folder under
 * the app's data dir that the engine syncs (upload-only), so they get the same checks, queue,
 * progress, journal and retries. A name already taken there gets a " (2)" suffix, never an overwrite.
 * Each path is read under the scan's rule for links, its own folder standing for the synced one: a
 * link that leaves it is refused (LINK-OUTSIDE-FOLDER), and the bytes copied are those of the file
 * that was checked (open-in-folder.ts), so a link retargeted meanwhile sends nothing from outside.
 */
export async function queueDroppedFiles(
  engine: SyncEngine,
  dataDir: string,
  paths: readonly string[],
  bucket: string,
  /** Files under this folder are the shell's own temporary copies: they are moved, not copied. */
  movableUnder?: string,
): Promise<Result<{ queued: number }, AppError>> {
  // Every path is checked before any is taken: a refused drop leaves nothing behind.
  for (const path of paths) {
    const refused = refusal(path, await inspectPath(resolve(path), scopeOf(path)));
    if (refused) return err(refused);
  }
  const dir = join(dataDir, 'dropped', bucket);
  makePrivateDir(dir);
  const existing = engine.listFolders().find((f) => f.path === dir);
  if (!existing) {
    const added = await engine.addFolder({ path: dir, bucket, mode: 'upload-only' });
    if (!added.ok) return added;
  }
  let queued = 0;
  for (const path of paths) {
    const target = await freeName(dir, basename(path));
    if (movableUnder && (await isOwnCopy(path, movableUnder))) {
      await rename(path, target);
    } else {
      const opened = await openInFolder(resolve(path), scopeOf(path));
      if (!opened.ok)
        return err(
          refusal(path, opened.seen) ?? notAFile(path, `it changed while being taken (${queued} taken)`),
        );
      try {
        await pipeline(
          opened.handle.createReadStream({ autoClose: false }),
          createWriteStream(target, { flags: 'wx' }),
        );
      } finally {
        await opened.handle.close().catch(() => undefined);
      }
    }
    queued++;
  }
  return ok({ queued });
}

/** The folder a dropped path was given in: its links may lead anywhere inside it, not out. */
const scopeOf = (path: string): LinkScope => ({ path: dirname(resolve(path)), followOutsideLinks: false });

function refusal(path: string, seen: Inspection): AppError | null {
  if (seen.kind === 'file') return null;
  if (seen.kind === 'skip') return appError(seen.code, `${path}: ${seen.message}`);
  return notAFile(
    path,
    seen.kind === 'gone' ? 'it does not exist' : 'folders cannot be dropped; add them as folders',
  );
}

const notAFile = (path: string, why: string) =>
  appError('DROP-NOT-A-FILE', `${path} is not a file that can be read (${why}).`);

/** A plain file of the shell's own folder (resolved, so `incoming/../x` is not one of them). */
async function isOwnCopy(path: string, movableUnder: string): Promise<boolean> {
  const abs = resolve(path);
  const own = resolve(movableUnder);
  if (abs === own || !isInside(abs, own)) return false;
  const l = await lstat(abs).catch(() => null);
  return l?.isFile() === true;
}

async function freeName(dir: string, name: string): Promise<string> {
  const ext = extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let i = 1; ; i++) {
    const candidate = join(dir, i === 1 ? name : `${stem} (${i})${ext}`);
    if (!(await stat(candidate).catch(() => null))) return candidate;
  }
}
