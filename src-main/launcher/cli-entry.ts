import { join } from 'node:path';
import { PROJECT_ROOT } from '../shared-node/project-paths';

// Defined (true) by the esbuild build of out/cli (cli-bundle.mjs); absent where the sources run (tsx, vitest).
declare const __CLI_BUNDLE__: boolean | undefined;

/** True when this process runs the CLI bundle in out/cli rather than the TypeScript sources. */
export const RUNNING_FROM_BUNDLE = typeof __CLI_BUNDLE__ !== 'undefined';

/**
 * The node arguments that run one of the CLI's entry points in a child process the way this process
 * runs: its bundle out/cli/<name>.mjs (built with this one, so just as fresh), or its TypeScript
 * `source` through tsx. `name` is the entry's key in cli-bundle.mjs.
 */
export function cliEntryArgs(name: string, source: string): string[] {
  return RUNNING_FROM_BUNDLE
    ? [join(PROJECT_ROOT, 'out', 'cli', `${name}.mjs`)]
    : ['--import', 'tsx', source];
}
