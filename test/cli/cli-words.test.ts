import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startReferenceServer } from '../../src-main/reference-server/server';
import { runCli } from './run-cli';

const root = join(import.meta.dirname, '..', '..');

/**
 * Issue 23, the CLI: the top-level --help names every option of sync, --once's closing sentence says
 * what a later run does (it adopts the files, it does not send them again), no raw code in the lines
 * for people, and a --once whose reader goes away still leaves the app's folder list as it was.
 */
// Each test spawns the CLI several times: a loaded machine (a CPU hog beside it) takes minutes, not seconds.
describe('the CLI says what it does', { timeout: 180_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'cli-words-'));
  const dataDir = join(work, 'data');
  let server: RunningServer;
  let env: Record<string, string>;
  const cli = (...args: string[]) =>
    runCli([...args, '--base-url', server.baseUrl, '--data-dir', dataDir], env);

  beforeAll(async () => {
    server = await startReferenceServer({ dataDir: join(work, 'server') });
    env = { ASSETS_API_KEY: String(server.demo?.api_key) };
  });
  afterAll(async () => {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("the top-level --help names every option of sync that sync's own --help does", async () => {
    const top = (await runCli(['--help'])).stdout;
    const own = (await runCli(['sync', '--help'])).stdout;
    const flags = [...new Set(own.match(/--[a-z][a-z-]+/g))].filter(
      (f) => !['--base-url', '--data-dir', '--json', '--help'].includes(f),
    );
    expect(flags).toEqual(expect.arrayContaining(['--dry-run', '--keep', '--dedupe']));
    const syncLine = top.split('\n').find((l) => /^\s+sync\s/.test(l)) ?? '';
    for (const f of flags) expect(syncLine, f).toContain(f);
  });

  it("the README's command line names every command and option the top-level --help does", async () => {
    const top = (await runCli(['--help'])).stdout;
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## The command line'));
    const said = section.slice(0, section.indexOf('\n## ', 3));
    const lines = top.split('\n').filter((l) => /^ {2}[a-z]/.test(l));
    expect(lines.length).toBeGreaterThan(10);
    for (const line of lines) {
      const name = line.trim().split(/\s+/)[0]!;
      expect(said, `README omits the command ${name}`).toMatch(new RegExp(`\`${name}[\` ]`));
      for (const f of line.match(/--[a-z][a-z-]+/g) ?? [])
        expect(said, `README omits ${name} ${f}`).toContain(f);
    }
  });

  it('--once says a later run adopts the files, and that run sends nothing', async () => {
    const dir = join(work, 'once');
    mkdirSync(dir);
    for (let i = 1; i <= 3; i++) writeFileSync(join(dir, `f${i}.txt`), `file ${i}\n`);
    const first = await cli('sync', dir, '--once');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('A later run finds them live (same name, size and md5) and adopts them');
    expect(first.stderr).not.toMatch(/sends its files again/);
    const again = await cli('sync', dir, '--once', '--json');
    expect(again.code, again.stderr).toBe(0);
    const uploads = again.lines.filter((l) => l.event === 'file' && l.to === 'UPLOADING');
    expect(uploads).toEqual([]);
  });

  it('import-urls names each failure in words, its code only in --json, and exits 1', async () => {
    const list = join(work, 'list.txt');
    writeFileSync(list, 'not a link\nftp://example.invalid/a.pdf\n');
    const r = await cli('import-urls', list);
    expect(r.code).toBe(1);
    const lines = r.stdout.split('\n').filter((l) => l.startsWith('line '));
    expect(lines).toHaveLength(2);
    for (const l of lines) {
      expect(l).toMatch(/^line \d: failed: /);
      expect(l).not.toMatch(/URL-INVALID|ERROR/);
    }
    const json = await cli('import-urls', list, '--json');
    expect(json.lines.filter((l) => l.event === 'import.line').map((l) => l.code)).toEqual([
      'URL-INVALID',
      'URL-INVALID',
    ]);
  });

  it('a --once whose reader closes the pipe ends cleanly and leaves no folder in the app', async () => {
    const dir = join(work, 'piped');
    mkdirSync(dir);
    for (let i = 1; i <= 40; i++) writeFileSync(join(dir, `p${i}.txt`), `piped ${i}\n`);
    const code = await new Promise<number | null>((resolve, reject) => {
      const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
      delete childEnv.ASSETS_SYNC_DATA_DIR;
      const child = spawn(
        process.execPath,
        [
          join(root, 'bin', 'assets-sync.mjs'),
          'sync',
          dir,
          '--once',
          '--json',
          '--base-url',
          server.baseUrl,
          '--data-dir',
          dataDir,
        ],
        { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      // The reader takes the first line and goes away, as `| head -1` does.
      child.stdout.once('data', () => child.stdout.destroy());
      child.stderr.resume();
      child.on('error', reject);
      child.on('close', (c) => resolve(c));
    });
    expect(code).not.toBeNull();
    const status = await cli('status', '--json');
    const folders = status.lines.filter((l) => l.event === 'folder').map((l) => l.path);
    expect(folders).not.toContain(dir);
  });

  it('the lines for people say a folder mode and the account state in words, the codes only in --json', async () => {
    const dir = join(work, 'modes');
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    const sync = await cli('sync', dir, '--once', '--keep');
    expect(sync.code, sync.stderr).toBe(0);
    const said = `${sync.stdout}\n${sync.stderr}`;
    // "Syncing … to bucket "default" (upload-only)" before.
    expect(said).toMatch(/to bucket "[a-z0-9-]+" \(upload only\)/);
    expect(said).not.toContain('upload-only');
    const status = await cli('status');
    // "… -> default (upload-only): …" before: the bucket unnamed, the mode its key.
    expect(status.stdout).toMatch(/ -> bucket [a-z0-9-]+ \(upload only/);
    expect(status.stdout).not.toContain('upload-only');
    const account = await cli('account');
    // "(client 1, ACTIVE)" before.
    expect(account.stdout).toMatch(/\(client \d+, active\)/);
    expect(account.stdout).not.toContain('ACTIVE');
    const json = await cli('account', '--json');
    expect(JSON.stringify(json.lines)).toContain('"ACTIVE"');
  });
});
