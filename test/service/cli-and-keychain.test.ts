import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { osKeychain } from '../../src-main/core/secrets/keychain';
import { apiKeyAccount } from '../../src-main/core/service/connection';
import { createFileApiClient } from '../../src-main/core/service/file-api-client';
import { closePools } from '../../src-main/core/service/http-pool';
import { createRequestBudget } from '../../src-main/core/service/request-budget';
import { SANDBOX_KEY_ACCOUNT } from '../../src-main/core/service/sandbox';
import { formatBytes } from '../../src-shared/domain/bytes';
import { parseIst } from '../../src-shared/domain/ist-time';
import { formatIstTime } from '../../src-shared/domain/time-format';
import { filesUnder } from '../support/files-under';
import { startTestServer, type TestServer } from './reference-server-helpers';

// Runs the real CLI (bin/assets-sync.mjs) against a real reference server, with the real keychain
// (run through test/run.sh: a private D-Bus session with gnome-keyring and a fresh HOME).
const root = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'assets-svc-cli-'));
const dataDir = join(work, 'data');
const transcripts: string[] = [];
/** Every key the runs used: none may appear in the data dir or any output. */
const secretsSeen: string[] = [];
let srv: TestServer;
let key: string;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  lines: Record<string, unknown>[];
}

function cli(args: string[], opts: { input?: string; env?: Record<string, string> } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, ...opts.env };
    delete env.ASSETS_SYNC_DATA_DIR;
    if (!opts.env?.ASSETS_API_KEY) delete env.ASSETS_API_KEY;
    delete env.ASSETS_BASE_URL;
    const child = spawn(
      process.execPath,
      [join(root, 'bin', 'assets-sync.mjs'), ...args, '--data-dir', dataDir],
      {
        cwd: root,
        env,
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      transcripts.push(stdout, stderr);
      const lines = stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      resolve({ code, stdout, stderr, lines });
    });
    child.stdin.end(opts.input ?? '');
  });
}

beforeAll(async () => {
  srv = await startTestServer();
  key = (await srv.newClient('CLI Client')).apiKey;
});
afterAll(async () => {
  try {
    osKeychain().delete(apiKeyAccount(srv.baseUrl));
    osKeychain().delete(SANDBOX_KEY_ACCOUNT);
  } catch {}
  await closePools();
  await srv?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('keychain', () => {
  it('round-trips a secret through the Secret Service', () => {
    const store = osKeychain();
    const secret = `s3cret-${Math.random()}`;
    store.set('test:round-trip', secret);
    expect(store.get('test:round-trip')).toBe(secret);
    expect(store.delete('test:round-trip')).toBe(true);
    expect(store.get('test:round-trip')).toBeNull();
  });
});

// Each test spawns the CLI several times: a loaded machine (a CPU hog beside it) takes minutes, not seconds.
describe('assets-sync account commands', { timeout: 180_000 }, () => {
  it('login refuses a wrong key and stores nothing, then accepts the right one from stdin', async () => {
    const bad = await cli(['login', '--base-url', `${srv.baseUrl}/`], { input: 'wrong-key\n' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('[UNAUTHENTICATED]');
    expect(osKeychain().get(apiKeyAccount(srv.baseUrl))).toBeNull();

    const good = await cli(['login', '--base-url', `${srv.baseUrl}/`, '--json'], { input: `${key}\n` });
    expect(good.code).toBe(0);
    expect(good.lines[0]).toMatchObject({
      event: 'login',
      base_url: srv.baseUrl,
      client: { name: 'CLI Client' },
    });
    expect(osKeychain().get(apiKeyAccount(srv.baseUrl))).toBe(key);
  });

  it('account, files, rm and usage use the saved account', async () => {
    const account = await cli(['account', '--json']);
    expect(account.code).toBe(0);
    expect(account.lines[0]).toMatchObject({
      event: 'account',
      source: 'account',
      account: { client: { name: 'CLI Client' }, wallet: { balance_paise: 10_000 } },
      below_upload_floor: false,
      in_arrears: false,
    });
    const text = await cli(['account']);
    expect(text.stdout).toContain('₹100.00');
    expect(text.stdout).toContain('upload floor ₹50.00');

    const path = join(work, 'a.txt');
    writeFileSync(path, 'cli file');
    const c = createFileApiClient({
      baseUrl: srv.baseUrl,
      apiKey: key,
      budget: createRequestBudget({ perMinute: 0 }),
    });
    const up = await c.uploadFile({ path, size: 8, name: 'a.txt', bucket: 'cli' });
    if (!up.ok) throw new Error(up.error.message);

    const files = await cli(['files', '--bucket', 'cli', '--json']);
    expect(files.code).toBe(0);
    expect(files.lines).toEqual([
      expect.objectContaining({ event: 'file', id: up.value.id, name: 'a.txt', url: up.value.url }),
      { event: 'files.summary', count: 1, bytes: 8, bucket: 'cli' },
    ]);
    // The text form: the service's time in the app's one format (IST, labelled), the size in IEC units.
    const listed = await cli(['files', '--bucket', 'cli']);
    const createdAt = up.value.created_at!;
    expect(listed.stdout).toContain(`   8 B  ${formatIstTime(parseIst(createdAt)!)}  a.txt`);
    expect(listed.stdout).toContain(`1 files, ${formatBytes(8)}`);
    const rm = await cli(['rm', String(up.value.id), '--json']);
    expect(rm.lines[0]).toEqual({ event: 'deleted', id: up.value.id, status: 'DELETED' });
    const after = await cli(['files', '--bucket', 'cli', '--json']);
    expect(after.lines.at(-1)).toMatchObject({ count: 0 });

    const usage = await cli(['usage', '--days', '7', '--json']);
    expect(usage.code).toBe(0);
    expect(usage.lines.at(-1)).toMatchObject({ event: 'usage.summary', days: 7 });
  });

  it('bad input is a clear error naming the problem, exit 2, no request sent', async () => {
    const cases: [string[], string][] = [
      [['rm', 'abc'], 'VALIDATION'],
      [['rm'], 'USAGE'],
      [['usage', '--days', '0'], 'VALIDATION'],
      [['files', '--bucket', 'Bad_Bucket'], 'BUCKET-INVALID'],
      [['files', '--frobnicate'], 'USAGE'],
      [['account', '--base-url', 'ftp://x'], 'BASE-URL-INVALID'],
    ];
    for (const [args, code] of cases) {
      const r = await cli([...args, '--json']);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.lines[0], args.join(' ')).toMatchObject({ event: 'error', code });
    }
  });

  it('ASSETS_API_KEY overrides the saved account; an unreachable service is NETWORK', async () => {
    const other = await srv.newClient('Env Client');
    const r = await cli(['account', '--json', '--base-url', srv.baseUrl], {
      env: { ASSETS_API_KEY: other.apiKey },
    });
    expect(r.lines[0]).toMatchObject({ account: { client: { name: 'Env Client' } } });
    secretsSeen.push(other.apiKey);
    const down = await cli(['files', '--json', '--base-url', 'http://127.0.0.1:9'], {
      env: { ASSETS_API_KEY: 'x' },
    });
    expect(down.code).toBe(1);
    expect(down.lines[0]).toMatchObject({ event: 'error', code: 'NETWORK' });
  });

  it('shows the last account copy with its time when the service is unreachable', async () => {
    const second = await startTestServer();
    const secondKey = second.demoKey;
    secretsSeen.push(secondKey);
    const login = await cli(['login', '--base-url', second.baseUrl], { input: secondKey });
    expect(login.code).toBe(0);
    expect((await cli(['account', '--json'])).lines[0]).toMatchObject({ offline: false });
    await closePools();
    await second.stop();
    const offline = await cli(['account', '--json']);
    expect(offline.code).toBe(0);
    expect(offline.lines[0]).toMatchObject({ offline: true, account: { client: { name: 'Demo' } } });
    expect((await cli(['logout', '--json'])).lines[0]).toMatchObject({
      base_url: second.baseUrl,
      removed: true,
    });
    expect(osKeychain().get(apiKeyAccount(second.baseUrl))).toBeNull();
    // The first account's key is still there, but no longer the saved account.
    expect(osKeychain().get(apiKeyAccount(srv.baseUrl))).toBe(key);
  });

  it('with no account saved, the embedded sandbox answers as the demo client', async () => {
    const r = await cli(['account', '--json']);
    expect(r.code).toBe(0);
    expect(r.lines[0]).toMatchObject({ source: 'sandbox', account: { client: { id: 1, name: 'Demo' } } });
    const sandboxKey = osKeychain().get(SANDBOX_KEY_ACCOUNT);
    expect(sandboxKey).toBeTruthy();
    secretsSeen.push(sandboxKey!);
  });

  it('no key is ever written to the data dir, standard output or standard error', () => {
    const secrets = [key, ...secretsSeen];
    expect(secrets.length).toBe(4);
    const files = filesUnder(dataDir);
    expect(files.some((f) => f.endsWith('app.sqlite'))).toBe(true);
    expect(files.some((f) => f.includes(`${join('data', 'sandbox')}`))).toBe(true);
    for (const secret of secrets) {
      for (const f of files)
        expect(readFileSync(f).includes(secret), `${secret.slice(0, 4)}… in ${f}`).toBe(false);
      for (const t of transcripts) expect(t.includes(secret)).toBe(false);
    }
  });
});
