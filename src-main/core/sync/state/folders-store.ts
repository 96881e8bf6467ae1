import type { Db } from '../../../shared-node/sqlite';
import { statements } from '../../../shared-node/statements';
import type { Folder, FolderMode, WatcherKind } from '../types';

interface DbFolder {
  id: number;
  path: string;
  bucket: string;
  mode: FolderMode;
  paused: number;
  ignore_patterns: string;
  watcher: WatcherKind;
  problem: string | null;
  follow_outside_links: number;
}

const toFolder = (r: DbFolder): Folder => ({
  id: r.id,
  path: r.path,
  bucket: r.bucket,
  mode: r.mode,
  paused: r.paused === 1,
  ignore: r.ignore_patterns,
  watcher: r.watcher,
  problem: r.problem,
  followOutsideLinks: r.follow_outside_links === 1,
});

export interface FolderInput {
  path: string;
  bucket: string;
  mode: FolderMode;
  ignore?: string;
  watcher?: WatcherKind;
  followOutsideLinks?: boolean;
}

export function foldersStore(db: Db, now: () => number = Date.now) {
  const prep = statements(db);
  return {
    list(): Folder[] {
      return prep<[], DbFolder>('SELECT * FROM sync_folders ORDER BY id').all().map(toFolder);
    },
    get(id: number): Folder | null {
      const r = prep<[number], DbFolder>('SELECT * FROM sync_folders WHERE id = ?').get(id);
      return r ? toFolder(r) : null;
    },
    byPath(path: string): Folder | null {
      const r = prep<[string], DbFolder>('SELECT * FROM sync_folders WHERE path = ?').get(path);
      return r ? toFolder(r) : null;
    },
    insert(f: FolderInput): Folder {
      const id = prep(
        'INSERT INTO sync_folders (path, bucket, mode, ignore_patterns, watcher, follow_outside_links, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ).run(
        f.path,
        f.bucket,
        f.mode,
        f.ignore ?? '',
        f.watcher ?? 'native',
        f.followOutsideLinks ? 1 : 0,
        now(),
      ).lastInsertRowid;
      return this.get(Number(id))!;
    },
    update(id: number, patch: Partial<Omit<Folder, 'id' | 'path'>>): Folder | null {
      const cur = this.get(id);
      if (!cur) return null;
      const next = { ...cur, ...patch };
      prep(
        'UPDATE sync_folders SET bucket = ?, mode = ?, paused = ?, ignore_patterns = ?, watcher = ?, problem = ?, follow_outside_links = ? WHERE id = ?',
      ).run(
        next.bucket,
        next.mode,
        next.paused ? 1 : 0,
        next.ignore,
        next.watcher,
        next.problem,
        next.followOutsideLinks ? 1 : 0,
        id,
      );
      return this.get(id);
    },
    remove(id: number): boolean {
      return prep('DELETE FROM sync_folders WHERE id = ?').run(id).changes > 0;
    },
  };
}

export type FoldersStore = ReturnType<typeof foldersStore>;
