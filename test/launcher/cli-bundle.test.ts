import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleIsFresh, cliBundle, cliOutDir } from '../../src-main/launcher/cli-bundle.mjs';

// bin/assets-sync.mjs in a copy of the project (its node_modules linked), so that the builds, edits and
// failures here touch neither the checkout's out/cli nor the processes other tests start from it.
const repo = join(import.meta.dirname, '..', '..');
const root = mkdtempSync(join(tmpdir(), 'assets-cli-bundle-'));
for (const p of ['bin', 'src-main', 'src-shared', 'tools', 'package.json', 'tsconfig.json'])
  cpSync(join(repo, p), join(root, p), { recursive: true });
symlinkSync(join(repo, 'node_modules'), join(root, 'node_modules'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(
  args: string[],
  env: Record<string, string> = {},
  input?: string,
  entry = 'bin/assets-sync.mjs',
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, entry), ...args], {
      env: { ...process.env, ASSETS_SYNC_TSX: '', ...env },
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    child.stdin?.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => (stdout += d));
    child.stderr?.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const viaTsx = (args: string[]) => cli(args, { ASSETS_SYNC_TSX: '1' });
const editHelp = (marker: string) => {
  const main = join(root, 'src-main', 'cli', 'main.ts');
  writeFileSync(main, readFileSync(main, 'utf8').replace('[options]', `[options] ${marker}`));
};

describe('the CLI runs from its bundle (out/cli)', () => {
  it('builds the bundle on the first start, and prints exactly what the sources print through tsx', async () => {
    expect(existsSync(cliBundle(root))).toBe(false);
    const bundled = await cli(['--help']);
    expect(existsSync(cliBundle(root))).toBe(true);
    expect(bundled).toEqual({ code: 0, stdout: expect.stringContaining('reference-server'), stderr: '' });
    expect(bundled).toEqual(await viaTsx(['--help']));

    const unknown = await cli(['no-such-command']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "no-such-command"');
    expect(unknown).toEqual(await viaTsx(['no-such-command']));
  });

  // zod and undici are inlined (cli-bundle.mjs) and undici loaded by the first request (http-pool.ts):
  // a bundled import() of CommonJS differs from Node's, so a request must go out the same both ways.
  it('sends a request through the inlined packages just as the sources do', async () => {
    const args = ['login', '--base-url', 'http://127.0.0.1:9', '--data-dir', join(root, 'data'), '--json'];
    const bundled = await cli(args, {}, 'ask_not_a_real_key\n');
    expect(bundled.stdout).toContain('ECONNREFUSED');
    expect(bundled).toEqual(await cli(args, { ASSETS_SYNC_TSX: '1' }, 'ask_not_a_real_key\n'));
  });

  it('reuses the bundle while nothing changed, and rebuilds it before running an edited source', async () => {
    const before = statSync(cliBundle(root));
    expect(bundleIsFresh(root)).toBe(true);
    await cli(['--help']);
    expect(statSync(cliBundle(root)).ino).toBe(before.ino);

    editHelp('EDITED-ONCE');
    expect(bundleIsFresh(root)).toBe(false);
    const run = await cli(['--help']);
    expect(run.stdout).toContain('EDITED-ONCE');
    expect(statSync(cliBundle(root)).ino).not.toBe(before.ino);
    expect(bundleIsFresh(root)).toBe(true);
  });

  it('counts a file added or removed deep in the tree, whatever its timestamps, as a change', async () => {
    expect(bundleIsFresh(root)).toBe(true);
    const added = join(root, 'src-main', 'core', 'sync', 'new-module.ts');
    writeFileSync(added, 'export const x = 1;\n');
    expect(bundleIsFresh(root)).toBe(false);
    await cli(['--help']);
    expect(bundleIsFresh(root)).toBe(true);
    rmSync(added);
    expect(bundleIsFresh(root)).toBe(false);
  });

  it('serves several processes starting at once on a stale bundle, each whole', async () => {
    editHelp('EDITED-TWICE');
    const runs = await Promise.all([cli(['--help']), cli(['--help']), cli(['--help'])]);
    for (const r of runs) {
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain('EDITED-TWICE');
    }
    expect(readdirSync(cliOutDir(root)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('keeps every module finding its files at its source location (the md5 workers, the project root)', () => {
    const chunks = readdirSync(join(cliOutDir(root), 'chunks')).map((f) =>
      readFileSync(join(cliOutDir(root), 'chunks', f), 'utf8'),
    );
    const all = chunks.join('\n');
    expect(all).not.toMatch(/import\.meta\.(url|dirname|filename)/);
    const workers = [...all.matchAll(/new URL\("(\.\/[^"]+\.mjs)", "(file:[^"]+)"\)/g)];
    expect(workers.length).toBeGreaterThan(0);
    for (const [, rel, base] of workers) expect(existsSync(fileURLToPath(new URL(rel!, base!)))).toBe(true);
    expect(existsSync(join(cliOutDir(root), 'engine-child.mjs'))).toBe(true);
  });

  // npm run bench:* and soak: tools/run.mjs runs tools/main.ts from the same build as the CLI.
  it('runs the harnesses of tools/ from the same bundle, as their sources run', async () => {
    const tools = (env: Record<string, string> = {}) =>
      cli(['no-such-tool'], env, undefined, 'tools/run.mjs');
    const bundled = await tools();
    expect(existsSync(join(cliOutDir(root), 'tools.mjs'))).toBe(true);
    expect(bundled.code).toBe(2);
    expect(bundled.stderr).toMatch(
      /^tools: name one of: server, remote, remote-child, sync, office, estimate, webhooks, relay, soak/,
    );
    expect(bundled).toEqual(await tools({ ASSETS_SYNC_TSX: '1' }));
  });

  it('builds the CLI alone where tools/ is absent (the packaged app)', async () => {
    const bare = mkdtempSync(join(tmpdir(), 'assets-cli-bare-'));
    try {
      for (const p of ['bin', 'src-main', 'src-shared', 'package.json', 'tsconfig.json'])
        cpSync(join(root, p), join(bare, p), { recursive: true });
      symlinkSync(join(repo, 'node_modules'), join(bare, 'node_modules'));
      const run = await new Promise<number | null>((resolve) =>
        spawn(process.execPath, [join(bare, 'bin', 'assets-sync.mjs'), '--help'], { stdio: 'ignore' }).on(
          'close',
          resolve,
        ),
      );
      expect(run).toBe(0);
      expect(readdirSync(cliOutDir(bare)).sort()).toEqual(['assets-sync.mjs', 'chunks', 'cli-sync.mjs']);
      expect(bundleIsFresh(bare)).toBe(true);
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });

  // The restart of a synced folder is measured from spawn to in sync: what `sync` loads before its
  // first scan is part of it. Through the core's barrel, one build with code splitting had it load the
  // whole app (the app service, every contract schema, the KB client, undici): 2.3 MB.
  it('starts `sync` and the benchmark engine without the app service, the KB client or undici', () => {
    const loadedAtStart = (entry: string) => {
      const seen = new Set<string>();
      const visit = (file: string) => {
        if (seen.has(file)) return;
        seen.add(file);
        const text = readFileSync(file, 'utf8');
        for (const m of text.matchAll(/^import\s*(?:[^'"]*?from\s*)?["'](\.[^'"]+)["']/gm))
          visit(join(file, '..', m[1]!));
      };
      visit(join(cliOutDir(root), entry));
      return [...seen].map((f) => readFileSync(f, 'utf8')).join('\n');
    };
    for (const entry of ['cli-sync.mjs', 'engine-child.mjs']) {
      const code = loadedAtStart(entry);
      expect(code, entry).toContain('// src-main/core/sync/engine.ts');
      for (const absent of [
        '// src-main/core/app/app-service.ts',
        '// src-main/core/kb/api-client.ts',
        '// src-shared/contract/index.ts',
        '// node_modules/undici/',
      ])
        expect(code.includes(absent), `${entry} loads ${absent.slice(3)} at start`).toBe(false);
    }
    // `sync` itself loads its module by that name, from its own build.
    expect(readFileSync(cliBundle(root), 'utf8')).toContain('import("./cli-sync.mjs")');
  });

  it('falls back to tsx with one line on stderr when the bundle cannot be written, stdout unchanged', async () => {
    rmSync(cliOutDir(root), { recursive: true });
    mkdirSync(join(root, 'out'), { recursive: true });
    writeFileSync(cliOutDir(root), 'not a directory');
    const run = await cli(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe((await viaTsx(['--help'])).stdout);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^assets-sync: running the sources through tsx \(the CLI bundle could not be built: /,
    );
  });
});
