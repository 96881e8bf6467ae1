import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO, track } from '../bench/shared/processes';

export interface ModelCheckResult {
  ok: boolean;
  /** Random sequences run against the real engine and reference server. */
  sequences: number;
  /** The failing sequence (fast-check's counterexample and its seed) or the output's tail. */
  detail: string;
}

/**
 * The model-based test of the sync engine (test/sync/model-based.test.ts, docs/sync-engine.md) for a
 * longer budget than `npm test` gives it: vitest in a child process (the test and fast-check are dev
 * tools, as this soak is), its sequences counted from its output.
 */
export async function runModelCheck(seconds: number, seed?: number): Promise<ModelCheckResult> {
  const child = track(
    spawn(join(REPO, 'node_modules', '.bin', 'vitest'), ['run', 'test/sync/model-based.test.ts'], {
      cwd: REPO,
      env: {
        ...process.env,
        NO_COLOR: '1',
        FORCE_COLOR: '0',
        ASSETS_MODEL_SECONDS: String(seconds),
        ...(seed !== undefined ? { ASSETS_MODEL_SEED: String(seed) } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let out = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString('utf8');
  });
  child.stderr?.on('data', (d: Buffer) => {
    out += d.toString('utf8');
  });
  const code = await new Promise<number | null>((r) => child.once('close', (c) => r(c)));
  const sequences = Number(/model-based test: (\d+) sequence/.exec(out)?.[1] ?? 0);
  const failure = /Counterexample: .*|Property failed after .*/g;
  return {
    ok: code === 0,
    sequences,
    detail: code === 0 ? '' : [...out.matchAll(failure)].map((m) => m[0]).join(' ') || out.slice(-800),
  };
}
