import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closePools } from '../../src-main/core/service/http-pool';
import { parseCsvLine } from '../../src-shared/domain/csv';
import { countedClient, serverWithClient } from './helpers';

// `assets-sync files` through the real CLI against a real reference server; requests are counted by
// the server itself (GET /__admin/v1/requests).

const root = join(import.meta.dirname, '..', '..');
let env: Awaited<ReturnType<typeof serverWithClient>>;
let work: string;

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const childEnv: NodeJS.ProcessEnv = { ...process.env, ASSETS_API_KEY: env.apiKey };
    delete childEnv.ASSETS_SYNC_DATA_DIR;
    delete childEnv.ASSETS_BASE_URL;
    const child = spawn(
      process.execPath,
      [
        join(root, 'bin', 'assets-sync.mjs'),
        ...args,
        '--base-url',
        env.srv.baseUrl,
        '--data-dir',
        join(work, 'data'),
      ],
      { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

async function requests(): Promise<Record<string, number>> {
  const r = await env.srv.admin('GET', '/requests');
  await env.srv.admin('DELETE', '/requests');
  return r.json.by_route;
}

beforeAll(async () => {
  env = await serverWithClient();
  work = mkdtempSync(join(tmpdir(), 'cli-files-'));
});
afterAll(async () => {
  await closePools();
  await env.srv.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('assets-sync files', () => {
  it('reads the local index; run twice with 5 new files between, the second spends one listing request', async () => {
    await env.seed(1_050, { buckets: ['docs', 'pics'] });
    await requests();
    const first = await cli(['files', '--json']);
    expect(first.code, first.stderr).toBe(0);
    const lines = jsonLines(first.stdout);
    expect(lines.length).toBe(1_051);
    expect(lines.at(-1)).toEqual({ event: 'files.summary', count: 1_050, bytes: 1_050 * 1024 });
    expect(Object.keys(lines[0]!).sort()).toEqual(
      ['event', 'id', 'name', 'bucket', 'url', 'size', 'md5', 'created_at', 'mime'].sort(),
    );
    expect(await requests()).toEqual({ 'GET /files': 11, 'GET /me': 1 });

    await env.seed(5, { prefix: 'fresh-' });
    const second = await cli(['files', '--json', '--search', 'FRESH']);
    expect(second.code).toBe(0);
    expect(await requests()).toEqual({ 'GET /files': 1, 'GET /me': 1 });
    expect(jsonLines(second.stdout).at(-1)).toMatchObject({ count: 5, search: 'FRESH' });

    // Without a refresh: no request at all.
    const offline = await cli(['files', '--no-refresh', '--bucket', 'pics', '--limit', '3']);
    expect(offline.code).toBe(0);
    expect(await requests()).toEqual({});
    expect(offline.stdout).toContain('525 files, 525 KiB in bucket "pics"');
    expect(offline.stdout).toContain('(3 shown)');

    // A delete by this app (rm) reaches the index at once: no refresh needed to see it gone.
    const newest = jsonLines(second.stdout)[0]!;
    const rm = await cli(['rm', String(newest.id), '--json']);
    expect(rm.code).toBe(0);
    const after = await cli(['files', '--no-refresh', '--json', '--search', 'FRESH']);
    expect(jsonLines(after.stdout).at(-1)).toMatchObject({ count: 4 });
  });

  it('--csv exports the columns with filters and sorting, formulas kept as text', async () => {
    const path = join(work, 'x.pdf');
    writeFileSync(path, 'x'.repeat(10));
    const up = await countedClient(env.srv.baseUrl, env.apiKey).client.uploadFile({
      path,
      size: 10,
      name: '=HYPERLINK("http://evil","click").pdf',
      bucket: 'docs',
    });
    expect(up.ok).toBe(true);
    const r = await cli([
      'files',
      '--csv',
      '--bucket',
      'docs',
      '--ext',
      'PDF',
      '--sort',
      'size',
      '--order',
      'asc',
      '--limit',
      '2',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout.trimEnd().split('\r\n');
    expect(rows[0]).toBe('id,name,bucket,url,size,md5,created_at (ISO 8601 in IST +05:30),mime');
    expect(rows.length).toBe(3);
    const cells = parseCsvLine(rows[1]!)!;
    expect(cells[1]).toBe('\'=HYPERLINK("http://evil","click").pdf');
    expect(cells.slice(2, 5)).toEqual(['docs', up.ok ? up.value.url : '', '10']);
    // Issue 23: the time carries its offset, so a spreadsheet reads the moment right.
    expect(cells[6]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\+05:30$/);
    expect(cells[6]!.replace('T', ' ').slice(0, 16)).toBe(up.ok ? up.value.created_at : '');
    expect(cells[7]).toBe('application/pdf');
    expect(r.stderr).toContain('files');
  });

  it('bad flags are clear errors, exit 2, no request', async () => {
    await requests();
    for (const [args, code] of [
      [['--sort', 'colour'], 'VALIDATION'],
      [['--ext', 'p%f'], 'VALIDATION'],
      [['--type', 'image; drop'], 'VALIDATION'],
      [['--limit', '0'], 'VALIDATION'],
      [['--bucket', 'Bad_Bucket'], 'BUCKET-INVALID'],
      [['--csv', '--json'], 'USAGE'],
    ] as const) {
      const r = await cli(['files', ...args, '--json']);
      expect(r.code, args.join(' ')).toBe(2);
      expect(jsonLines(r.stdout)[0], args.join(' ')).toMatchObject({ event: 'error', code });
    }
    expect(await requests()).toEqual({});
  });
});
