import { isUtf8 } from 'node:buffer';
import { type Dirent, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { displayName, nameNotUtf8 } from './file-names';
import type { IgnoreTest } from './ignore-rules';
import { inspectPathSync, type ResolvedScope, unreadableFolder } from './inspect';
import type { Listed, TreeWalk } from './list-tree';

/** Files per batch a walk yields. */
export const BATCH = 500;

/** The walk in this process (list-tree.ts): for small trees, off Linux, or when find cannot run. */
export function nodeWalk(
  root: string,
  ignored: IgnoreTest,
  onUnreadable: (path: string, code: string) => void,
  scope: ResolvedScope | undefined,
): TreeWalk {
  let complete = true;
  async function* batches(): AsyncGenerator<Listed[]> {
    const stack: string[] = [''];
    while (stack.length > 0) {
      const rel = stack.pop()!;
      let entries: Dirent[] | Dirent<Buffer>[];
      try {
        entries = readdirSync(join(root, rel), { withFileTypes: true });
        // A name that is not UTF-8 comes out with U+FFFD for its odd bytes, a path that opens nothing:
        // such a folder is read again as bytes, to name those files as they are (file-names.ts).
        if (entries.some((e) => e.name.includes('\uFFFD')))
          entries = readdirSync(join(root, rel), { withFileTypes: true, encoding: 'buffer' });
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code ?? String(e);
        // A folder refused now may be readable later, and its rows must not count as deleted meanwhile.
        // One too deep to open stays so, and nothing below it can ever have been sent (the upload opens
        // by the same full path): the rest of the walk still tells what is gone.
        if (code !== 'ENAMETOOLONG') complete = false;
        if (rel === '') onUnreadable(root, code);
        else yield [{ name: rel, seen: unreadableFolder(code) }];
        continue;
      }
      let batch: Listed[] = [];
      for (const entry of entries) {
        const own = typeof entry.name === 'string' ? entry.name : displayName(entry.name);
        const name = rel ? `${rel}/${own}` : own;
        if (typeof entry.name !== 'string' && !isUtf8(entry.name)) {
          // Never entered: nothing under a folder so named has a name the service takes.
          if (!ignored(name, entry.isDirectory()))
            batch.push({ name, seen: nameNotUtf8(entry.isDirectory()) });
        } else if (entry.isDirectory()) {
          if (!ignored(name, true)) stack.push(name);
        } else if (!ignored(name)) {
          batch.push({ name, seen: inspectPathSync(join(root, name), scope) });
          if (batch.length >= BATCH) {
            yield batch;
            batch = [];
          }
        }
      }
      if (batch.length) yield batch;
      // A turn for the event loop (watch events, uploads, the UI) between directories.
      await new Promise<void>((r) => setImmediate(r));
    }
  }
  return { batches: batches(), complete: () => complete, digest: () => null };
}
