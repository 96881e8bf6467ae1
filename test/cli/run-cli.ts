import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The --json lines of standard output. */
  lines: Record<string, unknown>[];
}

/**
 * The real CLI (bin/assets-sync.mjs) in a child process. The account comes only from `env` and the
 * arguments: the runner's own ASSETS_* variables are removed. `input` is written to its standard input.
 */
export function runCli(args: string[], env: Record<string, string> = {}, input?: string): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const childEnv: NodeJS.ProcessEnv = { ...process.env };
    for (const k of [
      'ASSETS_SYNC_DATA_DIR',
      'ASSETS_BASE_URL',
      'ASSETS_API_KEY',
      'ASSETS_RELAY_URL',
      'ASSETS_RELAY_TOKEN',
      'ASSETS_SIGNING_SECRET',
      'ASSETS_SECRET_STORE',
      'ASSETS_SECRETS_PASSPHRASE',
    ])
      delete childEnv[k];
    Object.assign(childEnv, env);
    const child = spawn(process.execPath, [join(root, 'bin', 'assets-sync.mjs'), ...args], {
      cwd: root,
      env: childEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdin.end(input ?? '');
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const lines = stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      resolve({ code, stdout, stderr, lines });
    });
  });
}
