import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5Of, type SyncTestServer, startServer, tempDir } from './helpers';

const root = join(import.meta.dirname, '..', '..');
let server: SyncTestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

interface Run {
  child: ChildProcess;
  lines: string[];
  done: Promise<number | null>;
}

function runSync(dir: string, dataDir: string): Run {
  const child = spawn(
    process.execPath,
    [
      join(root, 'bin', 'assets-sync.mjs'),
      'sync',
      dir,
      '--once',
      '--json',
      '--bucket',
      'crash',
      '--data-dir',
      dataDir,
      '--base-url',
      server.baseUrl,
    ],
    { env: { ...process.env, ASSETS_API_KEY: server.demoKey }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const lines: string[] = [];
  let buf = '';
  child.stdout!.on('data', (d: Buffer) => {
    buf += d.toString();
    const parts = buf.split('\n');
    buf = parts.pop()!;
    lines.push(...parts);
  });
  child.stderr!.on('data', (d: Buffer) => lines.push(`stderr: ${d.toString()}`));
  const done = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  return { child, lines, done };
}

const uploadsStarted = (lines: string[]) => lines.filter((l) => l.includes('"to":"UPLOADING"')).length;

describe('sync --once killed with SIGKILL', () => {
  it('three kills at random moments, then a run to the end: exactly one live remote file per local file', async () => {
    const dir = tempDir();
    const dataDir = tempDir('sync-crash-app-');
    const expected = new Map<string, string>();
    for (let i = 0; i < 40; i++) {
      const name = `clip-${i}.mp4`;
      writeFileSync(join(dir, name), randomBytes(64 * 1024 + i * 4096));
      expected.set(name, md5Of(join(dir, name)));
    }
    const all: string[] = [];
    try {
      let started = 0;
      for (let k = 0; k < 3; k++) {
        const run = runSync(dir, dataDir);
        // Kill after a random number of further uploads have started: mid-request, between requests.
        const target = started + 1 + Math.floor(Math.random() * 6);
        const end = Date.now() + 30_000;
        while (
          uploadsStarted(run.lines) + started < target &&
          run.child.exitCode === null &&
          Date.now() < end
        ) {
          await new Promise((r) => setTimeout(r, 5));
        }
        await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 40)));
        run.child.kill('SIGKILL');
        await run.done;
        started += uploadsStarted(run.lines);
        all.push(...run.lines);
      }
      const final = runSync(dir, dataDir);
      const code = await final.done;
      all.push(...final.lines);
      const summary = final.lines
        .map((l) => (l.startsWith('{') ? JSON.parse(l) : null))
        .find((e) => e?.event === 'summary');
      expect(
        summary?.allDone,
        final.lines
          .filter((l) => !l.includes('"progress"'))
          .slice(-12)
          .join('\n'),
      ).toBe(true);
      expect(code).toBe(0);

      const live = await server.liveFiles('crash');
      const names = live.map((f) => f.name);
      expect(new Set(names).size).toBe(names.length);
      expect(names.sort()).toEqual([...expected.keys()].sort());
      for (const f of live) expect(f.hash).toBe(expected.get(f.name));

      // The key never reaches the app's state or output.
      expect(all.join('\n')).not.toContain(server.demoKey);
      for (const name of readdirSync(dataDir, { recursive: true }) as string[]) {
        const p = join(dataDir, name);
        try {
          expect(readFileSync(p).includes(server.demoKey), p).toBe(false);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EISDIR') throw e;
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
