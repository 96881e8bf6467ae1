import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closePools } from '../../src-main/core/service/http-pool';
import { checkIds } from '../../src-main/core/url-import/check-ids';
import { parseImportList } from '../../src-main/core/url-import/import-lines';
import { importUrls } from '../../src-main/core/url-import/import-urls';
import { parseCsvLine } from '../../src-shared/domain/csv';
import { fakeClock } from '../sync/fake-clock';
import { until } from '../sync/helpers';
import { countedClient, serverWithClient } from './helpers';

// import-urls against the real reference server, the sources served by a small local HTTP server.

const root = join(import.meta.dirname, '..', '..');
let env: Awaited<ReturnType<typeof serverWithClient>>;
let sources: Server;
let src: string;
let work: string;
const BODIES: Record<string, string> = {
  '/price-list.pdf': 'price list body',
  '/brochure.png': 'png body',
  '/q/report.pdf': 'report with a query',
  '/big.txt': 'text body',
};
const md5 = (s: string) => createHash('md5').update(s).digest('hex');

beforeAll(async () => {
  env = await serverWithClient();
  work = mkdtempSync(join(tmpdir(), 'import-urls-'));
  sources = createServer((req, res) => {
    const body = BODIES[new URL(req.url ?? '/', 'http://x').pathname];
    if (body === undefined) {
      res.writeHead(404).end('no');
      return;
    }
    res.writeHead(200, { 'content-length': Buffer.byteLength(body) }).end(body);
  });
  await new Promise<void>((r) => sources.listen(0, '127.0.0.1', r));
  src = `http://127.0.0.1:${(sources.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await closePools();
  await new Promise((r) => sources.close(r));
  await env.srv.stop();
  rmSync(work, { recursive: true, force: true });
});

const results = (path: string) =>
  readFileSync(`${path}.results.csv`, 'utf8')
    .trimEnd()
    .split('\r\n')
    .map((l) => parseCsvLine(l)!);

/** Each result row's status and code, after the header. */
const statusAndCode = (path: string) =>
  results(path)
    .slice(1)
    .map((row) => [row[4], row[7]]);

async function posts(): Promise<number> {
  const r = await env.srv.admin('GET', '/requests');
  await env.srv.admin('DELETE', '/requests');
  return r.json.by_route['POST /files'] ?? 0;
}

describe('import-urls', () => {
  it('checks every line before a request, uploads the good ones, one result row per line, resumable', async () => {
    const list = join(work, 'list.csv');
    writeFileSync(
      list,
      [
        'source_url,bucket,md5',
        `${src}/price-list.pdf`,
        '# a comment, no row',
        `${src}/brochure.png,pics,${md5('png body')}`,
        '',
        `"${src}/q/report.pdf?a=1,b=2",docs`,
        'ftp://example.com/a.pdf',
        'not a url',
        `${src}/setup.exe`,
        `${src}/folder/`,
        `${src}/a.pdf,Bad_Bucket`,
        `${src}/a.pdf,,xyz`,
        `${src}/a.pdf,docs,${'0'.repeat(32)},extra`,
        `"${src}/open.pdf`,
        `${src}/missing.pdf`,
        `${src}/big.txt,,${'f'.repeat(32)}`,
      ].join('\r\n'),
    );
    const lines = parseImportList(readFileSync(list, 'utf8'));
    expect(lines.filter((l) => l.problem === null).length).toBe(5);
    await posts();
    const c = countedClient(env.srv.baseUrl, env.apiKey);
    const first = await importUrls(c.client, list);
    if (!first.ok) throw new Error(first.error.message);
    expect(first.value).toMatchObject({ lines: 13, uploaded: 3, failed: 10, skipped: 0, alreadyDone: 0 });
    // Only the five fit lines cost a request.
    expect(await posts()).toBe(5);
    const rows = results(list);
    expect(rows[0]).toEqual([
      'line',
      'source_url',
      'bucket',
      'md5',
      'status',
      'id',
      'url',
      'code',
      'message',
    ]);
    const byLine = new Map(rows.slice(1).map((r) => [Number(r[0]), r]));
    expect([...byLine.keys()]).toEqual([2, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
    const code = (line: number) => byLine.get(line)![7];
    expect(byLine.get(2)![4]).toBe('OK');
    expect(byLine.get(4)!.slice(2, 5)).toEqual(['pics', md5('png body'), 'OK']);
    expect(byLine.get(6)![1]).toBe(`${src}/q/report.pdf?a=1,b=2`);
    expect(byLine.get(6)![4]).toBe('OK');
    expect([7, 8, 9, 10, 11, 12, 13, 14, 15, 16].map(code)).toEqual([
      'URL-INVALID',
      'URL-INVALID',
      'EXTENSION-NOT-ALLOWED',
      'EXTENSION-NOT-ALLOWED',
      'BUCKET-INVALID',
      'VALIDATION',
      'VALIDATION',
      'VALIDATION',
      'SOURCE-UNREACHABLE',
      'HASH-MISMATCH',
    ]);
    for (const line of [2, 4, 6]) {
      const [, , , , , id, url] = byLine.get(line)!;
      const got = await c.client.getFile(Number(id));
      expect(got.ok && got.value.url).toBe(url);
    }
    const price = await c.client.getFile(Number(byLine.get(2)![5]));
    expect(price.ok && price.value).toMatchObject({ name: 'price-list.pdf', hash: md5('price list body') });

    // A second run uploads nothing that succeeded; it tries the failed server-side lines again.
    const second = await importUrls(c.client, list);
    expect(second.ok && second.value).toMatchObject({ uploaded: 0, alreadyDone: 3, failed: 10 });
    expect(await posts()).toBe(2);
    expect(
      results(list)
        .slice(1)
        .map((r) => r[5]),
    ).toEqual(rows.slice(1).map((r) => r[5]));

    // A run that stopped before writing its results (only the partial file left) still counts.
    copyFileSync(`${list}.results.csv`, `${list}.results.csv.partial`);
    rmSync(`${list}.results.csv`);
    const third = await importUrls(c.client, list);
    expect(third.ok && third.value).toMatchObject({ uploaded: 0, alreadyDone: 3 });
    expect(await posts()).toBe(2);
  });

  it('an account that cannot upload stops the run; the lines left are SKIPPED and the next run tries them', async () => {
    const poor = await env.srv.admin('POST', '/clients', { name: 'Poor', wallet_paise: 100 });
    const list = join(work, 'poor.txt');
    writeFileSync(list, `${src}/price-list.pdf\n${src}/brochure.png\n${src}/big.txt\n`);
    const c = countedClient(env.srv.baseUrl, poor.json.api_key);
    const r = await importUrls(c.client, list, { concurrency: 1 });
    expect(r.ok && r.value).toMatchObject({ uploaded: 0, skipped: 3, stoppedBy: { code: 'LOW-BALANCE' } });
    expect(c.sent.length).toBe(1);
    expect(statusAndCode(list)).toEqual([
      ['SKIPPED', 'LOW-BALANCE'],
      ['SKIPPED', 'LOW-BALANCE'],
      ['SKIPPED', 'LOW-BALANCE'],
    ]);
    await env.srv.admin('POST', `/clients/${poor.json.client.id}/wallet`, { amount_paise: 10_000 });
    const again = await importUrls(c.client, list);
    expect(again.ok && again.value).toMatchObject({ uploaded: 3, skipped: 0 });
  });

  it("never writes a source URL's credentials back: not in the results, not in a message, and a second run still knows the line", async () => {
    const list = join(work, 'credentials.txt');
    const withCreds = src.replace('http://', 'http://reader:s3cret-pass@');
    writeFileSync(
      list,
      [
        `${withCreds}/brochure.png`,
        'http//reader:s3cret-pass@example.com/a.pdf',
        'ftp://reader:s3cret-pass@example.com/a.pdf',
        `${src.replace('http://', 'http://tokenonly@')}/q/report.pdf`,
      ].join('\n'),
    );
    const said: string[] = [];
    const c = countedClient(env.srv.baseUrl, env.apiKey);
    const first = await importUrls(c.client, list, { onResult: (r) => said.push(JSON.stringify(r)) });
    expect(first.ok && first.value).toMatchObject({ lines: 4, uploaded: 2, failed: 2 });
    const text = readFileSync(`${list}.results.csv`, 'utf8');
    for (const where of [text, said.join('\n')]) {
      expect(where).not.toContain('s3cret-pass');
      expect(where).not.toContain('tokenonly');
    }
    expect(
      results(list)
        .slice(1)
        .map((row) => row[1]),
    ).toEqual([
      `${src.replace('http://', 'http://***@')}/brochure.png`,
      'http//reader:***@example.com/a.pdf',
      'ftp://***@example.com/a.pdf',
      `${src.replace('http://', 'http://***@')}/q/report.pdf`,
    ]);
    await posts();
    const again = await importUrls(c.client, list);
    expect(again.ok && again.value).toMatchObject({ alreadyDone: 2, uploaded: 0 });
    expect(await posts()).toBe(0);
  });

  it('a run aborted while it waits to send a line again stops at once: no sleep outlives the abort', async () => {
    const list = join(work, 'abort.txt');
    writeFileSync(list, `${src}/price-list.pdf\n${src}/brochure.png\n`);
    const c = countedClient(env.srv.baseUrl, env.apiKey);
    const clock = fakeClock();
    const controller = new AbortController();
    await env.srv.admin('PUT', '/faults', { storage_fail_rate: 1 });
    try {
      const run = importUrls(c.client, list, { concurrency: 1, signal: controller.signal, clock });
      // STORAGE-FAILED: the line is sent again after a backoff, which sleeps on the run's clock.
      await until('the run waits to send the first line again', () => clock.pending() === 1);
      controller.abort();
      const r = await run;
      // Resolved with the clock never moved: the wait ended with the abort, not after it.
      expect(r.ok && r.value).toMatchObject({ uploaded: 0, failed: 0, skipped: 2, requests: 1 });
      expect(clock.pending()).toBe(0);
      expect(c.sent.length).toBe(1);
      expect(statusAndCode(list)).toEqual([
        ['SKIPPED', 'ABORTED'],
        ['SKIPPED', 'ABORTED'],
      ]);
    } finally {
      await env.srv.admin('PUT', '/faults', { storage_fail_rate: 0 });
    }
  });

  it('--check-ids: old cdn_ids are LIVE with their URL or GONE; a line that is no id costs no request', async () => {
    const c = countedClient(env.srv.baseUrl, env.apiKey);
    const seeded = await env.seed(3);
    const deleted = seeded.first_id;
    expect((await c.client.deleteFile(deleted)).ok).toBe(true);
    const list = join(work, 'ids.txt');
    writeFileSync(list, `cdn_id\n${seeded.last_id}\n${deleted}\n99999999\nabc\n${seeded.first_id + 1}\n`);
    c.reset();
    const r = await checkIds(c.client, list);
    expect(r.ok && r.value).toMatchObject({ lines: 5, live: 2, gone: 2, errors: 1, requests: 4 });
    expect(c.sent.length).toBe(4);
    const rows = results(list);
    expect(rows.slice(1).map((row) => [row[0], row[2], row[5]])).toEqual([
      ['2', 'LIVE', ''],
      ['3', 'GONE', 'GONE'],
      ['4', 'GONE', 'GONE'],
      ['5', 'ERROR', 'VALIDATION'],
      ['6', 'LIVE', ''],
    ]);
    expect(rows[1]![3]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/storage\//);
  });

  it('the CLI runs it: one line event per line, a summary, exit 1 when some line failed', async () => {
    const list = join(work, 'cli.txt');
    writeFileSync(list, `${src}/brochure.png\n${src}/nope.exe\n`);
    const run = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
      const childEnv: NodeJS.ProcessEnv = { ...process.env, ASSETS_API_KEY: env.apiKey };
      delete childEnv.ASSETS_SYNC_DATA_DIR;
      const child = spawn(
        process.execPath,
        [
          join(root, 'bin', 'assets-sync.mjs'),
          'import-urls',
          list,
          '--json',
          '--base-url',
          env.srv.baseUrl,
          '--data-dir',
          join(work, 'data'),
        ],
        { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let stdout = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout }));
    });
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(run.code).toBe(1);
    expect(lines.map((l) => [l.event, l.line, l.status])).toEqual([
      ['import.line', 2, 'ERROR'],
      ['import.line', 1, 'OK'],
      ['import.summary', undefined, undefined],
    ]);
    expect(lines.at(-1)).toMatchObject({ lines: 2, uploaded: 1, failed: 1, results: `${list}.results.csv` });
  });
});
