import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forTerminal, forTerminalLines } from '../../src-main/cli/terminal-text';
import { type RunningServer, startReferenceServer } from '../../src-main/reference-server/server';

// A file name is whatever the disk or the service says it is: printed raw, ESC starts a terminal
// control sequence and CR overwrites the line. The real CLI, against a real reference server.
const root = join(import.meta.dirname, '..', '..');
const NAME = 'evil\x1b]0;owned\x07\x1b[2J\rfake\u202egnp.txt';
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding raw control characters is the point
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

let work: string;
let server: RunningServer;

function cli(
  args: string[],
  dataDir = join(work, 'data'),
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, ASSETS_API_KEY: String(server.demo?.api_key) };
    delete env.ASSETS_SYNC_DATA_DIR;
    delete env.ASSETS_BASE_URL;
    const child = spawn(
      process.execPath,
      [join(root, 'bin', 'assets-sync.mjs'), ...args, '--base-url', server.baseUrl, '--data-dir', dataDir],
      { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the CLI shows names escaped for people and exact for scripts', () => {
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'cli-escapes-'));
    server = await startReferenceServer({ dataDir: join(work, 'server') });
    mkdirSync(join(work, 'folder'));
    writeFileSync(join(work, 'folder', NAME), 'hello');
  });
  afterAll(async () => {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('sync --once and files print no raw control character', async () => {
    const sync = await cli(['sync', join(work, 'folder'), '--bucket', 'site', '--once']);
    expect(sync.code).toBe(0);
    expect(sync.stdout).toContain('evil\\e]0;owned\\x07\\e[2J\\rfake\\u202egnp.txt');
    const files = await cli(['files']);
    expect(files.code).toBe(0);
    // The service drops C0 controls from display names; the bidi override is still there.
    expect(files.stdout).toContain('\\u202egnp.txt');
    for (const out of [sync.stdout, sync.stderr, files.stdout, files.stderr])
      expect(out).not.toMatch(RAW_CONTROL);
  });

  it('--json keeps the name exact', async () => {
    // Its own data folder: a first sync, so every file is reported.
    const sync = await cli(
      ['sync', join(work, 'folder'), '--bucket', 'json', '--once', '--json'],
      join(work, 'data-json'),
    );
    expect(sync.code).toBe(0);
    const names = sync.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { event: string; name?: string })
      .filter((e) => e.event === 'file' && e.name !== undefined)
      .map((e) => e.name);
    expect(names).toContain(NAME);
  });

  it('escapes C0, DEL, C1 and the bidi controls, and nothing else', () => {
    expect(forTerminal('a\x00\x7f\x9b\u2066\u2069\u202a b\té中\\.txt\n')).toBe(
      'a\\x00\\x7f\\u009b\\u2066\\u2069\\u202a b\\té中\\.txt\\n',
    );
    expect(forTerminalLines('one\ntwo\r')).toBe('one\ntwo\\r');
  });
});
