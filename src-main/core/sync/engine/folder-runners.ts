import type { SyncContext } from '../context';
import type { NativeSubscribe } from '../watch/watch-folder';
import { createFolderRunner, type FolderRunner } from './folder-runner';

/**
 * The registry of folder runners (Syncthing's model keeps its folder runners the same way): one runner
 * per synced folder while the engine runs, made when a folder is first run (start, add), stopped and
 * forgotten when the folder is removed or the engine stops.
 */
export interface FolderRunners {
  /** The folder's runner, made on first use; null while the engine is stopped or for a folder not synced. */
  get(folderId: number): FolderRunner | null;
  /** The runner if there is one (never makes one). */
  peek(folderId: number): FolderRunner | null;
  all(): FolderRunner[];
  /** Folders the scheduler leaves alone now (a runner holds them: adoption at add). */
  held(): number[];
  /** Some folder is being scanned. */
  scanning(): boolean;
  /** Stops a folder's runner and forgets it (the folder was removed). */
  remove(folderId: number): Promise<void>;
  /** Runners may be made (engine start). */
  open(): void;
  /** Stops every runner; resolves once each has stopped. */
  stop(): Promise<void>;
}

export function createFolderRunners(
  ctx: SyncContext,
  deps: { subscribeNative?: NativeSubscribe; running(): boolean },
): FolderRunners {
  const runners = new Map<number, FolderRunner>();
  let open = false;

  return {
    get(folderId) {
      const existing = runners.get(folderId);
      if (existing) return existing;
      if (!open || !ctx.folders.get(folderId)) return null;
      const made = createFolderRunner(ctx, folderId, deps);
      runners.set(folderId, made);
      return made;
    },
    peek: (folderId) => runners.get(folderId) ?? null,
    all: () => [...runners.values()],
    held: () => [...runners.values()].filter((r) => r.isHeld()).map((r) => r.folderId),
    scanning: () => [...runners.values()].some((r) => r.isScanning()),
    async remove(folderId) {
      const r = runners.get(folderId);
      runners.delete(folderId);
      await r?.stop();
    },
    open() {
      open = true;
    },
    async stop() {
      open = false;
      const all = [...runners.values()];
      runners.clear();
      await Promise.allSettled(all.map((r) => r.stop()));
    },
  };
}
