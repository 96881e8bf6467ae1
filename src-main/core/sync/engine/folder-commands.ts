import { isAbsolute, resolve as resolvePath } from 'node:path';
import { invalidBucketMessage, isValidBucket } from '../../../../src-shared/domain/bucket';
import { folderModeText } from '../../../../src-shared/domain/words';
import { appError, err, ok } from '../../../../src-shared/errors';
import type { SyncContext } from '../context';
import type { SyncEngine } from '../engine';
import { DEFAULT_FOLDER_MODE } from '../folder-mode';
import { validatePatterns } from '../local/ignore-rules';
import { inspectPath } from '../local/inspect';
import type { FolderInput } from '../state/folders-store';
import type { EngineState } from './engine-state';
import type { FolderRunners } from './folder-runners';
import type { Scheduler } from './scheduler';
import { stripUndefined } from './strip-undefined';

export type FolderCommands = Pick<
  SyncEngine,
  'addFolder' | 'updateFolder' | 'removeFolder' | 'listFolders' | 'pause' | 'resume' | 'retry'
>;

/**
 * Folder commands: add, update, remove (each checked, with a clear error value), list with counts,
 * pause and resume (all folders or one), and retry of a file that failed or was skipped.
 */
export function createFolderCommands(
  ctx: SyncContext,
  state: EngineState,
  deps: { runners: FolderRunners; scheduler: Pick<Scheduler, 'abortFolder'> },
): FolderCommands {
  const { runners, scheduler } = deps;
  const { files, folders } = ctx;
  const folderName = (id: number) => folders.get(id)?.path ?? `a folder no longer watched (${id})`;

  return {
    async addFolder(input) {
      const path = resolvePath(input.path);
      if (!isAbsolute(input.path) && input.path.trim() === '')
        return err(appError('FOLDER-INVALID', 'A folder path is required.'));
      const insp = await inspectPath(path, null);
      if (insp.kind !== 'dir')
        return err(appError('FOLDER-NOT-FOUND', `${path} is not a folder that can be read.`));
      const bucket = input.bucket;
      if (!isValidBucket(bucket)) {
        return err(appError('BUCKET-INVALID', invalidBucketMessage(bucket)));
      }
      const bad = validatePatterns(input.ignore ?? '');
      if (bad) return err(appError('IGNORE-INVALID', bad));
      for (const f of folders.list()) {
        if (f.path === path)
          return err(appError('FOLDER-EXISTS', `${path} is already synced (to bucket ${f.bucket}).`));
        if (path.startsWith(`${f.path}/`) || f.path.startsWith(`${path}/`)) {
          return err(
            appError(
              'FOLDER-NESTED',
              `${path} overlaps the synced folder ${f.path}; a file must belong to one folder.`,
            ),
          );
        }
      }
      const folderInput: FolderInput = { path, bucket, mode: input.mode ?? DEFAULT_FOLDER_MODE };
      if (input.ignore !== undefined) folderInput.ignore = input.ignore;
      if (input.watcher !== undefined) folderInput.watcher = input.watcher;
      if (input.followOutsideLinks !== undefined) folderInput.followOutsideLinks = input.followOutsideLinks;
      const folder = folders.insert(folderInput);
      ctx.log('folder-added', `Syncing ${path} to bucket ${bucket} (${folderModeText(folder.mode)}).`, {
        folderId: folder.id,
      });
      const runner = state.running ? runners.get(folder.id) : null;
      if (runner) {
        ctx.hasher.warm?.();
        // Files already live in the bucket under the same name are adopted, not sent twice: the
        // runner holds the folder from the scheduler until that is settled.
        await runner.adopt();
        ctx.wake();
        await runner.startWatch();
      }
      return ok(folder);
    },

    async updateFolder(id, patch) {
      const cur = folders.get(id);
      if (!cur) return err(appError('FOLDER-UNKNOWN', `No synced folder has id ${id}.`));
      if (patch.bucket !== undefined && !isValidBucket(patch.bucket)) {
        return err(appError('BUCKET-INVALID', invalidBucketMessage(patch.bucket)));
      }
      if (patch.ignore !== undefined) {
        const bad = validatePatterns(patch.ignore);
        if (bad) return err(appError('IGNORE-INVALID', bad));
      }
      const next = folders.update(id, stripUndefined(patch))!;
      ctx.log('folder-updated', `Settings of ${next.path} changed.`, { folderId: id });
      const runner = state.running ? runners.get(id) : null;
      if (
        runner &&
        (patch.ignore !== undefined || patch.watcher !== undefined || patch.followOutsideLinks !== undefined)
      ) {
        await runner.stopWatch();
        await runner.scan();
        await runner.startWatch();
      }
      ctx.wake();
      return ok(next);
    },

    async removeFolder(id) {
      const cur = folders.get(id);
      if (!cur) return err(appError('FOLDER-UNKNOWN', `No synced folder has id ${id}.`));
      await runners.remove(id);
      scheduler.abortFolder(id);
      folders.remove(id);
      ctx.log('folder-removed', `Stopped syncing ${cur.path}; its remote files are kept.`);
      return ok(true);
    },

    listFolders() {
      return folders.list().map((f) => {
        const runner = runners.peek(f.id);
        return {
          ...f,
          counts: files.counts(f.id),
          tally: files.tally(f.id),
          inSync: runner ? runner.inSyncNow() : !files.hasPending(f.id),
          watching: runner?.watching() ?? null,
        };
      });
    },

    pause(folderId) {
      if (folderId === undefined) state.userPaused = true;
      else folders.update(folderId, { paused: true });
      ctx.log(
        'user-paused',
        // The folder by its path, as the card shows it: its id is the database's (issue 34).
        folderId === undefined ? 'Syncing paused.' : `Syncing of ${folderName(folderId)} paused.`,
        { folderId: folderId ?? null },
      );
    },

    resume(folderId) {
      if (folderId === undefined) state.userPaused = false;
      else folders.update(folderId, { paused: false });
      ctx.log(
        'user-resumed',
        folderId === undefined ? 'Syncing resumed.' : `Syncing of ${folderName(folderId)} resumed.`,
        { folderId: folderId ?? null },
      );
      ctx.wake();
    },

    retry(fileId) {
      const row = files.get(fileId);
      if (!row) return err(appError('FILE-UNKNOWN', `No file row has id ${fileId}.`));
      if (row.state !== 'FAILED' && row.state !== 'SKIPPED') {
        return err(
          appError(
            'NOT-RETRYABLE',
            `${row.name} is ${row.state}; only FAILED or SKIPPED files can be retried.`,
          ),
        );
      }
      const moved = ctx.transition(fileId, 'NEW', {
        attempts: 0,
        nextRetryAt: null,
        notBefore: null,
        rehashed: false,
        reasonCode: null,
        reason: null,
      });
      ctx.wake();
      return moved ? ok(moved) : err(appError('FILE-UNKNOWN', `The file row ${fileId} changed meanwhile.`));
    },
  };
}
