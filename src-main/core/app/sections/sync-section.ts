import { join } from 'node:path';
import { type AppError, appError, err, ok, type Result } from '../../../../src-shared/errors';
import type { SyncEngine } from '../../sync/engine';
import type { AppContext } from '../context';
import { queueDroppedFiles } from '../drops';
import { notConnected } from '../errors';
import type { Section } from '../section';
import type { SyncRuntime } from '../sync-runtime';

/** Folders, the queue and the activity log: a thin mapping onto the sync engine. */
export function syncSection(ctx: AppContext, runtime: SyncRuntime): Section {
  const withEngine = async <T>(fn: (e: SyncEngine) => Promise<Result<T, AppError>> | Result<T, AppError>) => {
    await runtime.ready();
    const e = runtime.engine;
    if (!e) return notConnected();
    const r = await fn(e);
    runtime.emitState();
    return r;
  };
  const folderView = (id: number) => runtime.overview().folders.find((f) => f.id === id)!;

  return {
    name: 'sync',
    handlers: {
      'sync.overview': async () => {
        await runtime.ready();
        return ok(runtime.overview());
      },
      'sync.folders.add': (r) =>
        withEngine(async (e) => {
          const added = await e.addFolder({
            path: r.path,
            bucket: r.bucket,
            mode: r.mode,
            followOutsideLinks: r.followOutsideLinks,
          });
          return added.ok ? ok(folderView(added.value.id)) : added;
        }),
      'sync.folders.update': (r) =>
        withEngine(async (e) => {
          const patch = {
            ...(r.bucket ? { bucket: r.bucket } : {}),
            ...(r.mode ? { mode: r.mode } : {}),
            ...(r.followOutsideLinks !== undefined ? { followOutsideLinks: r.followOutsideLinks } : {}),
          };
          const updated = await e.updateFolder(r.id, patch);
          return updated.ok ? ok(folderView(updated.value.id)) : updated;
        }),
      'sync.folders.remove': (r) =>
        withEngine(async (e) => {
          const removed = await e.removeFolder(r.id);
          return removed.ok ? ok({ done: true as const }) : removed;
        }),
      'sync.pause': (r) =>
        withEngine((e) => {
          if (r.folderId !== undefined && !e.listFolders().some((f) => f.id === r.folderId))
            return err(appError('FOLDER-UNKNOWN', `No synced folder has id ${r.folderId}.`));
          e.pause(r.folderId);
          if (r.folderId === undefined) ctx.settings.update({ pausedAll: true });
          return ok({ done: true as const });
        }),
      'sync.resume': (r) =>
        withEngine((e) => {
          if (r.folderId !== undefined && !e.listFolders().some((f) => f.id === r.folderId))
            return err(appError('FOLDER-UNKNOWN', `No synced folder has id ${r.folderId}.`));
          e.resume(r.folderId);
          if (r.folderId === undefined) ctx.settings.update({ pausedAll: false });
          return ok({ done: true as const });
        }),
      'sync.checkNow': () =>
        withEngine((e) => {
          e.checkNow();
          return ok({ done: true as const });
        }),
      'sync.uploadNow': (r) =>
        withEngine((e) => {
          const moved = e.uploadNow(r.fileId);
          return moved.ok ? ok({ done: true as const }) : moved;
        }),
      'sync.retry': (r) =>
        withEngine((e) => {
          if (r.fileId !== undefined) {
            const one = e.retry(r.fileId);
            return one.ok ? ok({ done: true as const }) : one;
          }
          for (;;) {
            const failed = e.listFiles({ state: 'FAILED', limit: 500 });
            if (failed.length === 0) break;
            for (const f of failed) e.retry(f.id);
          }
          return ok({ done: true as const });
        }),
      'sync.queue': async (r) => {
        await runtime.ready();
        return ok(runtime.queue(r.folderId));
      },
      'activity.list': async (r) => {
        await runtime.ready();
        return ok(runtime.activity(r.limit));
      },
      'files.uploadPaths': (r) =>
        withEngine((e) =>
          queueDroppedFiles(e, ctx.dataDir, r.paths, r.bucket, join(ctx.dataDir, 'incoming')),
        ),
    },
  };
}
