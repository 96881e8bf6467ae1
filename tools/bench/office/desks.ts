import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { writeSmallFiles } from '../shared/fixtures';
import { REPO, startServer, track } from '../shared/processes';

/** One desk of a run: a separate `assets-sync sync DIR` process, its own data folder, account and key. */
export interface DeskRun {
  index: number;
  child: ChildProcess;
  startedAt: number;
  /** When DIR was all live (`--once`: the process ended 0; long-running: its folder-in-sync event). */
  doneAt: number | null;
  live: number;
  /** When each file went live (ms since the desk started). */
  liveAt: number[];
  exitCode: number | null;
  killed: boolean;
  /** The desk's office events, as it printed them (`--json`). */
  office: { at: number; desks: number; holder: string | null; mode: string }[];
}

export interface Server {
  url: string;
  admin(method: string, path: string, body?: unknown): Promise<unknown>;
  stop(): Promise<void>;
}

export async function startBenchServer(root: string, mode: 'sliding' | 'fixed-strict'): Promise<Server> {
  const s = await startServer(join(root, 'server'), 120, {}, ['--rate-limit-mode', mode]);
  return {
    url: s.url,
    async admin(method, path, body) {
      const r = await fetch(`${s.url}/__admin/v1${path}`, {
        method,
        headers: {
          'x-admin-token': s.adminToken,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      if (!r.ok) throw new Error(`admin ${method} ${path}: HTTP ${r.status} ${await r.text()}`);
      return r.json();
    },
    stop: s.stop,
  };
}

/** A new account with a funded wallet, and its key. */
export async function newAccount(server: Server, name: string): Promise<string> {
  const r = (await server.admin('POST', '/clients', { name, wallet_paise: 10_000_000 })) as {
    api_key: string;
  };
  return r.api_key;
}

/**
 * Starts `count` desks at once, each syncing its own folder of `files` small files to its own account.
 * `once`: `sync DIR --once`; else a long-running `sync DIR`, stopped by `stopDesks`.
 */
export async function startDesks(o: {
  server: Server;
  root: string;
  count: number;
  files: number;
  once: boolean;
  env: Record<string, string>;
  onOffice?: (d: DeskRun) => void;
}): Promise<DeskRun[]> {
  const keys: string[] = [];
  const dirs: string[] = [];
  for (let i = 0; i < o.count; i++) {
    keys.push(await newAccount(o.server, `desk ${i}`));
    const dir = join(o.root, `desk-${i}`, 'files');
    mkdirSync(dir, { recursive: true });
    writeSmallFiles(dir, o.files, 2048);
    dirs.push(dir);
  }
  return keys.map((key, i) => {
    const data = join(o.root, `desk-${i}`, 'data');
    const args = [
      join(REPO, 'bin', 'assets-sync.mjs'),
      'sync',
      dirs[i]!,
      '--json',
      '--data-dir',
      data,
      '--base-url',
      o.server.url,
    ];
    if (o.once) args.push('--once');
    const child = track(
      spawn(process.execPath, args, {
        // OFFICE_BENCH_LOGS=DIR keeps each desk's standard error there (desk-N.log), to read a row afterwards.
        stdio: [
          'ignore',
          'pipe',
          process.env.OFFICE_BENCH_LOGS
            ? openSync(join(process.env.OFFICE_BENCH_LOGS, `desk-${i}.log`), 'w')
            : 'ignore',
        ],
        env: { ...process.env, ...o.env, ASSETS_API_KEY: key },
      }),
    );
    const d: DeskRun = {
      index: i,
      child,
      startedAt: Date.now(),
      doneAt: null,
      live: 0,
      liveAt: [],
      exitCode: null,
      killed: false,
      office: [],
    };
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let e: Record<string, unknown>;
      try {
        e = JSON.parse(line) as Record<string, unknown>;
      } catch {
        return;
      }
      if (process.env.OFFICE_BENCH_LOGS && e.event !== 'progress')
        appendFileSync(
          join(process.env.OFFICE_BENCH_LOGS, `desk-${i}.events`),
          `${Date.now() - d.startedAt} ${line}\n`,
        );
      if (e.event === 'file' && e.to === 'LIVE') {
        d.live++;
        d.liveAt.push(Date.now() - d.startedAt);
      }
      if (e.event === 'folder-in-sync' && !o.once && d.doneAt === null) d.doneAt = Date.now();
      if (e.event === 'office') {
        d.office.push({
          at: Date.now(),
          desks: Number(e.desks),
          holder: (e.holder as string | null) ?? null,
          mode: String(e.mode),
        });
        o.onOffice?.(d);
      }
    });
    child.once('exit', (code) => {
      d.exitCode = code;
      if (o.once && code === 0) d.doneAt = Date.now();
    });
    return d;
  });
}

export const exited = (d: DeskRun) =>
  new Promise<void>((r) =>
    d.child.exitCode !== null || d.child.signalCode !== null ? r() : d.child.once('exit', () => r()),
  );

export function tempRoot(): string {
  return mkdtempSync(join(tmpdir(), 'bench-office-'));
}
