import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { cliEntryArgs } from '../../src-main/launcher/cli-entry';
import { REPO, track } from '../bench/shared/processes';
import type { AppChildInput, SettledReport } from './app-child';

export interface AppProcess {
  pid: number;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** Resolves with the `settled` report (settle mode), or rejects when the process ends without one. */
  settled: Promise<SettledReport>;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** App processes that ended without being asked to (a crash): none is the target. */
export const unasked: { code: number | null; signal: string | null }[] = [];

/** Account events the app reported, over every process of the run. */
export const accountEvents = { paused: 0, resumed: 0, stopped: 0 };

/** Starts the app (app-child.ts) and resolves once it is syncing (its `ready` line). */
export async function startApp(input: AppChildInput): Promise<AppProcess> {
  const child: ChildProcess = track(
    spawn(process.execPath, cliEntryArgs('soak-app-child', join(import.meta.dirname, 'app-child.ts')), {
      stdio: ['pipe', 'pipe', 'inherit'],
      cwd: REPO,
    }),
  );
  // Given on stdin, not on the command line, where any user's `ps` would show the keys.
  child.stdin!.write(`${JSON.stringify(input)}\n`);
  let asked = false;
  const exited = new Promise<number | null>((r) =>
    child.once('close', (code, signal) => {
      if (!asked && (code !== 0 || input.mode === 'run')) unasked.push({ code, signal });
      r(code);
    }),
  );
  let onReady: () => void = () => undefined;
  let onSettled: (r: SettledReport) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    onReady = resolve;
    void exited.then((code) => reject(new Error(`the app exited with ${code} before it was ready`)));
  });
  const settled = new Promise<SettledReport>((resolve, reject) => {
    onSettled = resolve;
    void exited.then((code) => reject(new Error(`the app exited with ${code} and no report`)));
  });
  settled.catch(() => undefined);
  createInterface({ input: child.stdout! }).on('line', (line) => {
    let e: { event?: string };
    try {
      e = JSON.parse(line);
    } catch {
      return;
    }
    if (e.event === 'ready') onReady();
    else if (e.event === 'settled') onSettled(e as SettledReport);
    else if (e.event === 'paused' || e.event === 'resumed' || e.event === 'stopped') accountEvents[e.event]++;
  });
  await ready;
  return {
    pid: child.pid!,
    exited,
    settled,
    async kill(signal) {
      asked = true;
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
