import { execFileSync } from 'node:child_process';

/**
 * How to run a child process that file modes stop, so that a mode-000 folder refuses it (EACCES).
 * A normal user is stopped already. Root is not: it holds CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH,
 * so its child runs through setpriv with both taken out of its bounding set. It stays root and owns
 * the same files, so it still reads the project wherever the clone is (a 0700 `mktemp -d` included),
 * where a child run as another user (uid 65534) could not even read bin/assets-sync.mjs.
 * `skip` says why the child cannot be made so here (no setpriv, or no CAP_SETPCAP to drop them).
 */
export function unprivileged(): { prefix: string[]; skip?: string } {
  if (process.getuid?.() !== 0) return { prefix: [] };
  const prefix = ['setpriv', '--bounding-set', '-dac_override,-dac_read_search', '--'];
  try {
    execFileSync(prefix[0]!, [...prefix.slice(1), 'true'], { stdio: 'ignore' });
  } catch (e) {
    return {
      prefix,
      skip: `running as root, and root's child cannot be stopped by file modes here: setpriv could not drop CAP_DAC_OVERRIDE (${(e as Error).message.split('\n')[0]})`,
    };
  }
  return { prefix };
}
