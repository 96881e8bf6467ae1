import { type Dirent, readdirSync } from 'node:fs';
import { join } from 'node:path';
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
      let entries: Dirent[];
      try {
        entries = readdirSync(join(root, rel), { withFileTypes: true });
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
        const name = rel ? `${rel}/${entry.name}` : entry.name;
        if (entry.isDirectory()) {
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
