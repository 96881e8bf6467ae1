import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const root = join(import.meta.dirname, '..', '..');

export interface DeskProcess {
  child: ChildProcess;
  /** The office events the desk printed (`sync --json`). */
  office: Record<string, unknown>[];
  live: number;
  stderr: string;
  /** Resolves when this desk says the office has `n` desks. */
  sees(n: number): Promise<void>;
  stop(): Promise<number | null>;
}

/**
 * A long-running `assets-sync sync DIR --json` desk: its own data folder, account key and `files` small
 * files; `prefix` runs it through another command (`ip netns exec NS`).
 */
/** Every desk process started by a test file: `killLeftDesks` ends those a timed-out test left running. */
const started = new Set<ChildProcess>();

export function killLeftDesks(): void {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  started.clear();
}

export function startDeskProcess(o: {
  work: string;
  name: string;
  baseUrl: string;
  apiKey: string;
  files: number;
  env?: Record<string, string>;
  prefix?: string[];
}): DeskProcess {
  const dir = join(o.work, o.name, 'files');
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < o.files; i++) writeFileSync(join(dir, `${o.name}-${i}.txt`), `${o.name} file ${i}\n`);
  const env: NodeJS.ProcessEnv = { ...process.env, ...o.env, ASSETS_API_KEY: o.apiKey };
  for (const k of ['ASSETS_SYNC_DATA_DIR', 'ASSETS_BASE_URL']) delete env[k];
  const args = [
    join(root, 'bin', 'assets-sync.mjs'),
    'sync',
    dir,
    '--json',
    '--data-dir',
    join(o.work, o.name, 'data'),
    '--base-url',
    o.baseUrl,
  ];
  const cmd = o.prefix ? [...o.prefix, process.execPath, ...args] : [process.execPath, ...args];
  const child = spawn(cmd[0]!, cmd.slice(1), { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  started.add(child);
  const waiters: { n: number; resolve: () => void }[] = [];
  const d: DeskProcess = {
    child,
    office: [],
    live: 0,
    stderr: '',
    sees(n) {
      if (d.office.some((e) => e.desks === n)) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    stop() {
      return new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      });
    },
  };
  child.stderr!.on('data', (b: Buffer) => {
    d.stderr += b.toString();
  });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    let e: Record<string, unknown>;
    try {
      e = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    if (e.event === 'file' && e.to === 'LIVE') d.live++;
    if (e.event !== 'office') return;
    d.office.push(e);
    for (const w of [...waiters])
      if (w.n === e.desks) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
  });
  return d;
}

/** `n` new accounts on the reference server, each with a funded wallet: their keys. */
export async function newKeys(server: { baseUrl: string; adminToken: string }, n: number): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await fetch(`${server.baseUrl}/__admin/v1/clients`, {
      method: 'POST',
      headers: { 'x-admin-token': server.adminToken, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `desk ${i}`, wallet_paise: 1_000_000 }),
    });
    keys.push(((await r.json()) as { api_key: string }).api_key);
  }
  return keys;
}
