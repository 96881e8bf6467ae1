import type { SyncContext } from '../context';
import { ignoreRules } from '../local/ignore-rules';
import { inspectPath } from '../local/inspect';
import { localGone, observe } from '../local/observe';
import { scanFolder } from '../local/scanner';
import type { Folder } from '../types';
import { type NativeSubscribe, type WatchChange, watchFolder } from '../watch/watch-folder';
import { runInBackground } from './background';
import type { EngineState } from './engine-state';

export interface WatchBatching {
  /** Watches a folder (once the engine runs), then scans it once more to close the gap. */
  startWatch(folder: Folder): Promise<void>;
  /** Stops watching a folder (removed, or its ignore rules or watcher kind changed). */
  stopWatch(folderId: number): Promise<void>;
  /** Scans a folder; asked while it is being scanned, it is scanned again once that scan ends. */
  rescan(folderId: number): Promise<void>;
}

/** The end of a batch: changes to one folder within this window are recorded together. */
const BATCH_MS = 100;

/**
 * Watch batching: watcher changes are queued per folder and path, applied together after a short
 * window in one transaction (ignored paths dropped, directories handed to a rescan), and rescans are
 * coalesced so one folder is never scanned twice at once.
 */
export function createWatchBatching(
  ctx: SyncContext,
  state: EngineState,
  deps: { subscribeNative?: NativeSubscribe },
): WatchBatching {
  const { db, files, folders, events, options } = ctx;

  async function startWatch(folder: Folder) {
    if (!options.watch || state.watches.has(folder.id) || !state.running) return;
    try {
      const w = await watchFolder(
        folder,
        {
          onChanges: (changes) => queueChanges(folder.id, changes),
          onRescan: (reason) => {
            ctx.log('rescan', `Scanning ${folder.path} again (${reason}).`, { folderId: folder.id });
            rescanInBackground(folder.id);
          },
        },
        (message) => {
          ctx.log('watch-fallback', message, { folderId: folder.id });
          events.emit('error', { folderId: folder.id, code: 'WATCH-FALLBACK', message });
        },
        {
          pollIntervalMs: options.pollIntervalMs,
          ...(deps.subscribeNative ? { subscribe: deps.subscribeNative } : {}),
        },
      );
      if (!state.running || !folders.get(folder.id)) await w.close();
      else {
        state.watches.set(folder.id, w);
        // The watcher starts after a scan, and what changed between the two reached neither: one more
        // scan closes the gap (unchanged files cost a stat and no write, so it is cheap).
        rescanInBackground(folder.id);
      }
    } catch (e) {
      events.emit('error', {
        folderId: folder.id,
        code: 'WATCH-FAILED',
        message: `Could not watch ${folder.path}: ${String(e)}`,
      });
    }
  }

  async function stopWatch(folderId: number) {
    await state.watches.get(folderId)?.close();
    state.watches.delete(folderId);
  }

  function queueChanges(folderId: number, changes: WatchChange[]) {
    // The native watcher's thread may hand over a batch while stop() awaits its close, or after: a
    // stopped engine schedules nothing (its database may be closed); the next start scans the folder.
    if (!state.running) return;
    const map = state.pendingChanges.get(folderId) ?? new Map();
    for (const c of changes) map.set(c.name, c.kind);
    state.pendingChanges.set(folderId, map);
    if (!state.timers.changes.has(folderId)) {
      state.timers.changes.set(
        folderId,
        setTimeout(() => {
          state.timers.changes.delete(folderId);
          const path = folders.get(folderId)?.path ?? `folder ${folderId}`;
          void runInBackground(ctx, { what: `Applying the changes seen in ${path}`, folderId }, () =>
            applyChanges(folderId),
          );
        }, BATCH_MS),
      );
    }
  }

  async function applyChanges(folderId: number) {
    const folder = folders.get(folderId);
    const map = state.pendingChanges.get(folderId);
    state.pendingChanges.delete(folderId);
    if (!folder || !map) return;
    const ignored = ignoreRules(folder.ignore);
    const seen: { name: string; insp: Awaited<ReturnType<typeof inspectPath>> }[] = [];
    let needScan = false;
    for (const [name, kind] of map) {
      if (
        ignored(name) ||
        name
          .split('/')
          .some((_part, i, all) => i < all.length - 1 && ignored(all.slice(0, i + 1).join('/'), true))
      )
        continue;
      const insp = await inspectPath(`${folder.path}/${name}`, folder);
      // A name that is not UTF-8 arrives with U+FFFD for its odd bytes and opens nothing: the scan
      // reads the folder's names as bytes and names it (local/file-names.ts).
      if (insp.kind === 'gone' && name.includes('\uFFFD')) {
        needScan = true;
        continue;
      }
      if (insp.kind === 'dir') needScan = true;
      else seen.push({ name, insp });
      if (kind === 'delete' || insp.kind === 'gone') {
        for (const r of files.underPath(folderId, name)) {
          if (r.name !== name && (await inspectPath(`${folder.path}/${r.name}`)).kind === 'gone')
            localGone(ctx, folder, r);
        }
      }
    }
    db.transaction(() => {
      for (const s of seen) observe(ctx, folder, s.name, s.insp);
      // Seen appearing or changing while the app watches: before the scan's backlog (engine/priority.ts).
      files.markSeenLive(
        folderId,
        seen.map((s) => s.name),
        ctx.now(),
      );
    })();
    if (needScan) rescanInBackground(folderId);
    ctx.wake();
  }

  async function rescan(folderId: number) {
    if (state.scanning.has(folderId)) {
      state.rescanWanted.add(folderId);
      return;
    }
    const folder = folders.get(folderId);
    if (!folder) return;
    state.scanning.add(folderId);
    try {
      const scanned = await scanFolder(ctx, folder);
      if (scanned.ok)
        events.emit('folder-scanned', {
          folderId,
          files: scanned.files,
          sameAsMark: scanned.sameAsMark === true,
        });
    } catch (e) {
      events.emit('error', {
        folderId,
        code: 'SCAN-FAILED',
        message: `Scanning ${folder.path} failed: ${String(e)}`,
      });
    } finally {
      state.scanning.delete(folderId);
      state.progress.dirtyFolders.add(folderId);
      if (state.rescanWanted.delete(folderId)) rescanInBackground(folderId);
      ctx.wake();
    }
  }

  function rescanInBackground(folderId: number) {
    const path = folders.get(folderId)?.path ?? `folder ${folderId}`;
    void runInBackground(ctx, { what: `Scanning ${path}`, folderId }, () => rescan(folderId));
  }

  return { startWatch, stopWatch, rescan };
}
