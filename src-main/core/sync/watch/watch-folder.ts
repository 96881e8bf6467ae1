import { relative, sep } from 'node:path';
import type { Folder } from '../types';

/** One change seen by a watcher: a path relative to the folder, '/'-separated. */
export interface WatchChange {
  name: string;
  kind: 'change' | 'delete';
}

export interface FolderWatch {
  kind: 'native' | 'polling';
  close(): Promise<void>;
}

export interface WatchHandlers {
  onChanges(changes: WatchChange[]): void;
  /** The watcher lost track (overflow, error): the folder must be scanned again. */
  onRescan(reason: string): void;
  /**
   * The folder itself was moved away or deleted: the watcher watches nothing any more (the native one
   * stops delivering, even once the folder is back), so it must be made anew once the folder is found.
   */
  onLost(reason: string): void;
}

/**
 * Native recursive watching of a tree, with @parcel/watcher's `subscribe` signature. The engine takes
 * it as an option so that a test can make it fail the way a full inotify table does (ENOSPC).
 */
export type NativeSubscribe = (
  dir: string,
  onEvents: (error: Error | null, events: { path: string; type: 'create' | 'update' | 'delete' }[]) => void,
) => Promise<{ unsubscribe(): Promise<void> }>;

export interface WatchOptions {
  subscribe?: NativeSubscribe;
  /** How often a polled folder is looked at (default 2 s). */
  pollIntervalMs?: number;
}

export const INOTIFY_ADVICE =
  'The system ran out of file watches (inotify). Raise the limit, e.g. `sudo sysctl fs.inotify.max_user_watches=524288` (and add it to /etc/sysctl.conf); until then this folder is polled.';

/**
 * Watches a folder: @parcel/watcher (one recursive native watch) by default; chokidar in polling mode
 * for folders where native events do not arrive (network shares) or when the inotify table is full.
 */
export async function watchFolder(
  folder: Folder,
  handlers: WatchHandlers,
  onFallback: (message: string) => void,
  opts: WatchOptions = {},
): Promise<FolderWatch> {
  if (folder.watcher === 'native') {
    try {
      return await watchNative(folder, handlers, opts.subscribe);
    } catch (e) {
      const text = e instanceof Error ? e.message : String(e);
      // @parcel/watcher reports it as "inotify_add_watch on '...' failed: No space left on device".
      const full =
        (e as NodeJS.ErrnoException)?.code === 'ENOSPC' ||
        (/ENOSPC|inotify|watch/i.test(text) && /ENOSPC|limit|no space/i.test(text));
      onFallback(full ? INOTIFY_ADVICE : `Native watching failed (${text}); this folder is polled instead.`);
    }
  }
  return watchPolling(folder, handlers, opts.pollIntervalMs ?? 2_000);
}

const toName = (root: string, abs: string) => relative(root, abs).split(sep).join('/');

async function watchNative(folder: Folder, h: WatchHandlers, given?: NativeSubscribe): Promise<FolderWatch> {
  const subscribe: NativeSubscribe = given ?? (await import('@parcel/watcher')).subscribe;
  const sub = await subscribe(folder.path, (error, events) => {
    if (error) {
      h.onRescan(`watcher error: ${error.message}`);
      return;
    }
    if (events.some((ev) => ev.type === 'delete' && toName(folder.path, ev.path) === '')) {
      h.onLost('the folder itself was moved or deleted');
      return;
    }
    h.onChanges(
      events
        .map((ev) => ({
          name: toName(folder.path, ev.path),
          kind: ev.type === 'delete' ? ('delete' as const) : ('change' as const),
        }))
        .filter((c) => c.name !== '' && !c.name.startsWith('..')),
    );
  });
  return { kind: 'native', close: () => sub.unsubscribe() };
}

async function watchPolling(folder: Folder, h: WatchHandlers, intervalMs: number): Promise<FolderWatch> {
  const { watch } = await import('chokidar');
  const w = watch(folder.path, {
    usePolling: true,
    interval: intervalMs,
    binaryInterval: intervalMs,
    ignoreInitial: true,
    followSymlinks: false,
  });
  const emit = (kind: WatchChange['kind']) => (abs: string) =>
    h.onChanges([{ name: toName(folder.path, abs), kind }]);
  w.on('add', emit('change')).on('change', emit('change')).on('addDir', emit('change'));
  w.on('unlink', emit('delete')).on('unlinkDir', (abs: string) => {
    if (toName(folder.path, abs) === '') h.onLost('the folder itself was moved or deleted');
    else h.onChanges([{ name: toName(folder.path, abs), kind: 'delete' }]);
  });
  w.on('error', (e) => h.onRescan(`polling error: ${e instanceof Error ? e.message : String(e)}`));
  await new Promise<void>((resolve) => w.once('ready', () => resolve()));
  return { kind: 'polling', close: () => w.close() };
}
