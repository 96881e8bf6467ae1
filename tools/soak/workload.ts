import { appendFileSync, type Dirent, mkdirSync, readdirSync, renameSync, unlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { writeRandomFile } from '../bench/shared/fixtures';
import type { Random } from './random';

/** What a person does to watched folders, at random: drops, edits, renames, deletes, folder moves. */
export type Operation = 'drop' | 'edit' | 'rename' | 'delete' | 'move-folder';

const EXTENSIONS = ['txt', 'json', 'png', 'jpg', 'pdf', 'mp4', 'csv'];
/** Above this many files in a folder, deletes win: the soak is about churn, not growth. */
const FILES_PER_FOLDER = 120;

export interface Workload {
  /** Does one operation somewhere (touching the disk only) and says which. */
  step(): Operation;
  readonly done: Record<Operation, number>;
}

/**
 * Names are never reused (a counter and a random tail): a name given back after a delete in an
 * upload-only folder would have two live copies by design (the deleted one is kept online).
 */
export function createWorkload(folders: readonly string[], random: Random): Workload {
  let seq = 0;
  const fresh = (prefix: string) => `${prefix}-${seq++}-${random.int(0, 1e9).toString(36)}`;
  const done: Record<Operation, number> = { drop: 0, edit: 0, rename: 0, delete: 0, 'move-folder': 0 };

  function size(): number {
    const r = random.next();
    if (r < 0.8) return random.int(1, 64 * 1024);
    if (r < 0.97) return random.int(64 * 1024, 2 * 1024 * 1024);
    if (r < 0.995) return random.int(2 * 1024 * 1024, 6 * 1024 * 1024);
    // Now and then a file large enough to be hashed while it is sent (16 MiB and up).
    return random.int(17 * 1024 * 1024, 20 * 1024 * 1024);
  }

  function drop(folder: string): void {
    const dirs = subfolders(folder);
    const r = random.next();
    let dir = folder;
    if (r < 0.15) {
      dir = join(folder, fresh('dir'));
      mkdirSync(dir);
    } else if (r < 0.6 && dirs.length) dir = random.pick(dirs);
    writeRandomFile(join(dir, `${fresh('file')}.${random.pick(EXTENSIONS)}`), size());
  }

  function edit(file: string): void {
    if (random.next() < 0.2) appendFileSync(file, `appended ${fresh('line')}\n`);
    else writeRandomFile(file, size());
  }

  function rename(folder: string, file: string): void {
    const dirs = [folder, ...subfolders(folder)];
    const ext = file.slice(file.lastIndexOf('.'));
    renameSync(file, join(random.pick(dirs), `${fresh('renamed')}${ext}`));
  }

  function moveFolder(folder: string): boolean {
    const dirs = subfolders(folder);
    if (!dirs.length) return false;
    const from = random.pick(dirs);
    // Mostly within the folder; sometimes into another watched folder (a delete here, a drop there).
    const into = random.next() < 0.6 ? dirname(from) : random.pick(folders);
    renameSync(from, join(into, fresh('moved')));
    return true;
  }

  return {
    done,
    step() {
      const folder = random.pick(folders);
      const files = filesUnder(folder);
      const r = random.next();
      let op: Operation;
      if (files.length === 0 || (r < 0.4 && files.length < FILES_PER_FOLDER)) op = 'drop';
      else if (files.length >= FILES_PER_FOLDER && r < 0.5) op = 'delete';
      else if (r < 0.6) op = 'edit';
      else if (r < 0.75) op = 'rename';
      else if (r < 0.9) op = 'delete';
      else op = 'move-folder';
      if (op === 'drop') drop(folder);
      else if (op === 'edit') edit(random.pick(files));
      else if (op === 'rename') rename(folder, random.pick(files));
      else if (op === 'delete') unlinkSync(random.pick(files));
      else if (!moveFolder(folder)) {
        op = 'drop';
        drop(folder);
      }
      done[op]++;
      return op;
    },
  };
}

/** Every file under `dir`, as absolute paths. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of entries(d)) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** Every folder under `dir` (not `dir` itself), as absolute paths. */
function subfolders(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of entries(d)) {
      if (!e.isDirectory()) continue;
      out.push(join(d, e.name));
      walk(join(d, e.name));
    }
  };
  walk(dir);
  return out;
}

const entries = (d: string): Dirent[] => readdirSync(d, { withFileTypes: true });

/** A file's name as the engine uploads it: its path relative to the folder, '/'-separated. */
export const remoteName = (folder: string, file: string) => relative(folder, file).split('\\').join('/');
