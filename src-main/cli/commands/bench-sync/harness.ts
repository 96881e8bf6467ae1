import { type ChildProcess, spawn } from 'node:child_process';
import { randomFillSync } from 'node:crypto';
import { closeSync, mkdirSync, openSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { ChildInput, ChildReport } from './engine-child';

const REPO = join(import.meta.dirname, '..', '..', '..', '..');

/** Children started by this run; killed (by their own pid) when the run ends, whatever happened. */
const children = new Set<ChildProcess>();

export async function stopChildren(): Promise<void> {
  const all = [...children];
  for (const c of all) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
  await Promise.all(all.map((c) => (c.exitCode === null && c.signalCode === null ? exited(c) : null)));
}

const exited = (c: ChildProcess) => new Promise<void>((r) => c.once('exit', () => r()));

export interface BenchServer {
  url: string;
  apiKey: string;
  pid: number;
  stop(): Promise<void>;
}

/** The reference server in its own process (as a user runs it), its limit per minute given (0 = off). */
export async function startServer(dataDir: string, ratePerMinute: number): Promise<BenchServer> {
  const child = spawn(
    process.execPath,
    [
      join(REPO, 'bin', 'assets-sync.mjs'),
      'reference-server',
      '--port',
      '0',
      '--rate-limit-per-minute',
      String(ratePerMinute),
      '--data-dir',
      dataDir,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.add(child);
  child.once('exit', () => children.delete(child));
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
      reject(new Error(`the reference server exited with ${code} before it was ready`)),
    );
  });
  const demo = ready.demo as { api_key?: string } | undefined;
  if (!demo?.api_key) throw new Error('the reference server printed no demo API key (data dir not new?)');
  return {
    url: String(ready.base_url),
    apiKey: demo.api_key,
    pid: child.pid!,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited(child);
    },
  };
}

/** Runs the engine once in a child process (engine-child.ts) and returns its report and wall time. */
export async function runEngine(input: ChildInput): Promise<ChildReport & { wallMs: number }> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      // BENCH_SYNC_PROFILE=DIR writes a CPU profile of each engine run there (chrome://inspect, speedscope).
      ...(process.env.BENCH_SYNC_PROFILE
        ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_SYNC_PROFILE]
        : []),
      '--import',
      'tsx',
      join(import.meta.dirname, 'engine-child.ts'),
      JSON.stringify(input),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'], cwd: REPO },
  );
  children.add(child);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString('utf8');
  });
  const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  children.delete(child);
  const wallMs = performance.now() - started;
  const line = out.trim().split('\n').pop() ?? '';
  if (code !== 0 || !line.startsWith('{'))
    throw new Error(`the engine run exited with ${code}: ${out.slice(-500)}`);
  return { ...(JSON.parse(line) as ChildReport), wallMs };
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
  children.add(child);
  let stdout = '';
  child.stdout!.on('data', (d: Buffer) => {
    stdout += d.toString('utf8');
  });
  const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  children.delete(child);
  const ms = performance.now() - started;
  if (code !== 0) throw new Error(`\`${script.slice(0, 80)}\` exited with ${code}`);
  return { ms, stdout };
}

/** Runs one program directly (no shell), its output discarded, and returns its wall time in ms. */
export async function timeCommand(command: string, args: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  children.add(child);
  const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  children.delete(child);
  const ms = performance.now() - started;
  if (code !== 0) throw new Error(`${command} exited with ${code}`);
  return ms;
}

/** Incompressible bytes, written in 1 MiB chunks (the file is never whole in memory). */
export function writeRandomFile(path: string, size: number): void {
  const chunk = randomFillSync(Buffer.alloc(1024 * 1024));
  const fd = openSync(path, 'w');
  try {
    for (let left = size; left > 0; left -= chunk.length) {
      chunk.writeUInt32LE(left, 0);
      writeSync(fd, chunk, 0, Math.min(left, chunk.length));
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * `count` small files of `size` bytes spread over `folders` subfolders, each with distinct content,
 * dated a minute back: files dropped earlier, past the engine's stability window.
 */
export function writeSmallFiles(root: string, count: number, size: number, folders = 1): void {
  const past = new Date(Date.now() - 60_000);
  const body = Buffer.alloc(size, 'x');
  for (let d = 0; d < folders; d++) mkdirSync(folders > 1 ? join(root, `d${d}`) : root, { recursive: true });
  for (let i = 0; i < count; i++) {
    const dir = folders > 1 ? join(root, `d${i % folders}`) : root;
    const path = join(dir, `f${i}.txt`);
    body.write(`file ${i} `, 0);
    writeFileSync(path, body);
    utimesSync(path, past, past);
  }
}

export const BENCH_BUCKET = 'bench';
