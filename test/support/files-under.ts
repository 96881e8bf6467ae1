import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The regular files under `dir`, at any depth: what a test reads to prove a secret never reached the
 * disk. Sockets and pipes (the sandbox's door.sock in the data folder) hold no bytes and cannot be
 * read, so they are left out.
 */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    const st = statSync(p);
    return st.isDirectory() ? filesUnder(p) : st.isFile() ? [p] : [];
  });
}
