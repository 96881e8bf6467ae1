// The walk of the folder `assets-sync sync DIR` is about to scan, started by bin/assets-sync.mjs before
// the bundle loads (src-main/shared-node/find-run.mjs): find then walks while Node loads the
// modules, opens the database and starts the engine, on the other core. Plain JavaScript, built-ins
// only: this runs before anything can run TypeScript.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startEarlyFind } from '../shared-node/find-run.mjs';

/** The options of `sync` (and the common ones) that take a value: what is left is DIR (commands/sync.ts). */
const VALUE_OPTIONS = ['bucket', 'concurrency', 'bwlimit', 'base-url', 'data-dir'];

/**
 * DIR of `sync DIR`, resolved as the command resolves it; null for another command, a dry run (which
 * lists the service, not the folder) or a command line the command itself will refuse. A wrong guess
 * costs one find that no scan takes: a scan takes only the walk of its own folder.
 */
export function syncFolderOf(argv) {
  if (argv[0] !== 'sync') return null;
  let parsed;
  try {
    parsed = parseArgs({
      args: argv.slice(1),
      options: {
        ...Object.fromEntries(VALUE_OPTIONS.map((name) => [name, { type: 'string' }])),
        help: { type: 'boolean', short: 'h' },
      },
      strict: false,
      allowPositionals: true,
    });
  } catch {
    return null;
  }
  const { values, positionals } = parsed;
  if (values.help || values['dry-run'] || positionals.length !== 1) return null;
  return resolve(positionals[0]);
}

/** Starts the walk of `sync DIR`'s folder, when argv is such a command line. */
export function startEarlyFindFor(argv) {
  const dir = syncFolderOf(argv);
  if (dir !== null) startEarlyFind(dir);
}
