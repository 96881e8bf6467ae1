import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { PROJECT_ROOT } from '../../../src-main/shared-node/project-paths';

/** Child processes of a benchmark run: started, tracked, timed, and stopped by their own pid. */

export const REPO = PROJECT_ROOT;

/** Children started by this run; killed (by their own pid) when the run ends, whatever happened. */
const children = new Set<ChildProcess>();

export function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export async function stopChildren(): Promise<void> {
  const all = [...children];
  for (const c of all) if (running(c)) c.kill('SIGTERM');
  await Promise.all(all.map((c) => (running(c) ? exited(c) : null)));
}

const running = (c: ChildProcess) => c.exitCode === null && c.signalCode === null;
const exited = (c: ChildProcess) => new Promise<number | null>((r) => c.once('exit', (code) => r(code)));

/** Starts a program that prints a JSON `{"event":"ready",...}` line on stdout, and waits for that line. */
export async function startReadyChild(argv: string[]) {
  const child = track(spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] }));
  const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const parsed = JSON.parse(line);
        if (parsed.event === 'ready') resolve(parsed);
      } catch {
        // not the ready line
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`${argv.join(' ').slice(0, 120)} exited with ${code} before it was ready`)),
    );
  });
  return {
    child,
    ready,
    url: String(ready.base_url),
    async stop() {
      if (!running(child)) return;
      child.kill('SIGTERM');
      await exited(child);
    },
  };
}

export interface BenchServer {
  /** Where clients send requests (through the shaped link's proxy, for a link server). */
  url: string;
  apiKey: string;
  /** The server's own address and admin token: its request counts (served.ts). */
  adminUrl: string;
  adminToken: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * The reference server in its own process (as a user runs it), its limit per minute given (0 = off);
 * optionally inside a network namespace, listening on that namespace's address (link.ts).
 */
export async function startServer(
  dataDir: string,
  ratePerMinute: number,
  where: { netns?: string; host?: string } = {},
  /** More flags of the server (`--rate-limit-mode fixed-strict`). */
  extra: string[] = [],
): Promise<BenchServer> {
  const server = await startReadyChild([
    // `ip netns exec` execs the command in place: the child's pid is the server's, stopped by it.
    ...(where.netns ? ['ip', 'netns', 'exec', where.netns] : []),
    process.execPath,
    join(REPO, 'bin', 'assets-sync.mjs'),
    'reference-server',
    '--port',
    '0',
    '--rate-limit-per-minute',
    String(ratePerMinute),
    '--data-dir',
    dataDir,
    ...(where.host ? ['--host', where.host] : []),
    ...extra,
  ]);
  const demo = server.ready.demo as { api_key?: string } | undefined;
  if (!demo?.api_key) throw new Error('the reference server printed no demo API key (data dir not new?)');
  return {
    url: server.url,
    apiKey: demo.api_key,
    adminUrl: server.url,
    adminToken: String(server.ready.admin_token),
    pid: server.child.pid!,
    stop: server.stop,
  };
}

/** Runs a child to its end and returns its stdout; throws (with the output's tail) unless it exits 0. */
export async function runToEnd(child: ChildProcess, what: string): Promise<string> {
  track(child);
  let out = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString('utf8');
  });
  // 'close', not 'exit': the last bytes of stdout may arrive after the process has exited.
  const code = await new Promise<number | null>((r) => child.once('close', (c) => r(c)));
  if (code !== 0) throw new Error(`${what} exited with ${code}${out ? `: ${out.slice(-500)}` : ''}`);
  return out;
}

/** Runs a shell pipeline and returns its wall time in ms and its stdout. */
export async function timeShell(
  script: string,
  env: Record<string, string> = {},
): Promise<{ ms: number; stdout: string }> {
  const started = performance.now();
  const child = spawn('bash', ['-c', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const stdout = await runToEnd(child, `\`${script.slice(0, 80)}\``);
  return { ms: performance.now() - started, stdout };
}

/** Runs one program directly (no shell), its output discarded, and returns its wall time in ms. */
export async function timeCommand(command: string, args: string[]): Promise<number> {
  const started = performance.now();
  await runToEnd(spawn(command, args, { stdio: ['ignore', 'ignore', 'inherit'] }), command);
  return performance.now() - started;
}

/** The best (lowest) of `n` measurements: the machine is shared, the slower runs measure the neighbours. */
export async function bestOf(n: number, measure: () => Promise<number>): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < n; i++) best = Math.min(best, await measure());
  return best;
}
