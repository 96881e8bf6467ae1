import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomFillSync } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { Pool } from 'undici';

const run$ = promisify(execFile);
const UPLOAD_BYTES = 200 * 1024 * 1024;
const SEED_FILES = 10_000;
const LIST_SECONDS = 5;

/**
 * `npm run bench:server`, one run, three figures, each against a baseline measured in the same run:
 * 1. a 200 MB multipart upload through the reference server vs the same bytes sent by curl to a minimal Node
 *    HTTP sink that streams the body to a file (target: at least 0.7 of the sink's throughput);
 * 2. the server's peak RSS (VmHWM) during that upload (target: under 150 MB);
 * 3. GET /files?per_page=100 requests per second with 10,000 files stored (target: at least 1,000/s).
 */
export async function run(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-server-'));
  const children: ChildProcess[] = [];
  try {
    const file = join(dir, 'upload.mp4');
    writeRandomFile(file, UPLOAD_BYTES);

    const sink = await startChild(children, [process.execPath, '-e', SINK_SOURCE, join(dir, 'sink.bin')]);
    const sinkSeconds = await bestOf(2, () => curlUpload(`${sink.url}/`, file, []));

    const server = await startChild(children, [
      process.execPath,
      join(import.meta.dirname, '..', '..', '..', 'bin', 'assets-sync.mjs'),
      'reference-server',
      '--port',
      '0',
      '--rate-limit-per-minute',
      '0',
      '--data-dir',
      join(dir, 'server'),
    ]);
    const key = String((server.ready.demo as Record<string, unknown>).api_key);
    const auth = ['-H', `Authorization: Bearer ${key}`];
    const rssIdle = vmHwmMb(server.child.pid!);
    const serverSeconds = await bestOf(2, () => curlUpload(`${server.url}/api/assets/v1/files`, file, auth));
    const rssPeak = vmHwmMb(server.child.pid!);
    const mb = UPLOAD_BYTES / 1024 / 1024;
    const ratio = sinkSeconds / serverSeconds;

    const pool = new Pool(server.url, { connections: 16 });
    try {
      const seedStart = performance.now();
      await seed(pool, key, SEED_FILES);
      const seedSeconds = (performance.now() - seedStart) / 1000;
      const rps = await listRate(pool, key, LIST_SECONDS);

      console.log('reference server benchmark (one run; baselines measured in this run)');
      console.log(`1. 200 MB multipart upload, best of 2`);
      console.log(
        `   curl -> minimal Node sink : ${sinkSeconds.toFixed(2)} s  ${(mb / sinkSeconds).toFixed(0)} MB/s`,
      );
      console.log(
        `   curl -> reference server  : ${serverSeconds.toFixed(2)} s  ${(mb / serverSeconds).toFixed(0)} MB/s`,
      );
      console.log(
        `   ratio server/sink         : ${ratio.toFixed(2)}  (target >= 0.70) ${ratio >= 0.7 ? 'PASS' : 'FAIL'}`,
      );
      console.log(
        `2. server peak RSS (VmHWM)    : ${rssPeak.toFixed(0)} MB (idle ${rssIdle.toFixed(0)} MB; target < 150 MB) ${rssPeak < 150 ? 'PASS' : 'FAIL'}`,
      );
      console.log(
        `3. GET /files?per_page=100 with ${SEED_FILES} files (seeded in ${seedSeconds.toFixed(1)} s)`,
      );
      console.log(
        `   ${rps.toFixed(0)} requests/s over ${LIST_SECONDS} s, 16 connections (target >= 1000/s) ${rps >= 1000 ? 'PASS' : 'FAIL'}`,
      );
    } finally {
      await pool.close();
    }
    return 0;
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(
      children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null)),
    );
    rmSync(dir, { recursive: true, force: true });
  }
}

// The baseline: reads the body and streams it to a file, nothing else.
const SINK_SOURCE = `
const http = require('node:http'); const fs = require('node:fs');
const server = http.createServer((req, res) => {
  const out = fs.createWriteStream(process.argv[1]);
  req.pipe(out).on('finish', () => res.end('{}'));
});
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ event: 'ready', base_url: 'http://127.0.0.1:' + server.address().port })));
`;

function writeRandomFile(path: string, size: number): void {
  const chunk = randomFillSync(Buffer.alloc(1024 * 1024));
  const fd = openSync(path, 'w');
  for (let left = size; left > 0; left -= chunk.length) writeSync(fd, chunk, 0, Math.min(left, chunk.length));
  closeSync(fd);
}

async function startChild(children: ChildProcess[], argv: string[]) {
  const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const parsed = JSON.parse(line);
        if (parsed.event === 'ready') resolve(parsed);
      } catch {
        // not the ready line
      }
    });
    child.once('exit', (code) => reject(new Error(`${argv[1]} exited with ${code} before it was ready`)));
  });
  return { child, ready, url: String(ready.base_url) };
}

async function curlUpload(url: string, file: string, extra: string[]): Promise<number> {
  const { stdout } = await run$('curl', [
    '-s',
    '-o',
    '/dev/null',
    '-w',
    '%{http_code} %{time_total}',
    ...extra,
    '-F',
    `file=@${file}`,
    url,
  ]);
  const [code, seconds] = stdout.trim().split(' ');
  if (code !== '200' && code !== '201') throw new Error(`upload to ${url} answered ${code}`);
  return Number(seconds);
}

async function bestOf(n: number, fn: () => Promise<number>): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < n; i++) best = Math.min(best, await fn());
  return best;
}

function vmHwmMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

async function seed(pool: Pool, key: string, count: number): Promise<void> {
  const boundary = 'bench-boundary';
  const body = (i: number) =>
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="bucket"\r\n\r\nbench\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="file-${i}.txt"\r\n` +
        `Content-Type: text/plain\r\n\r\nfile number ${i}\r\n--${boundary}--\r\n`,
    );
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const res = await pool.request({
        path: '/api/assets/v1/files',
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        body: body(i),
      });
      await res.body.dump();
      if (res.statusCode !== 201) throw new Error(`seeding answered ${res.statusCode}`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

async function listRate(pool: Pool, key: string, seconds: number): Promise<number> {
  const until = performance.now() + seconds * 1000;
  let done = 0;
  const worker = async () => {
    while (performance.now() < until) {
      const res = await pool.request({
        path: '/api/assets/v1/files?per_page=100',
        method: 'GET',
        headers: { authorization: `Bearer ${key}` },
      });
      const text = await res.body.text();
      if (res.statusCode !== 200 || !text.startsWith('{"data":['))
        throw new Error(`list answered ${res.statusCode}`);
      done++;
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: 16 }, worker));
  return done / ((performance.now() - start) / 1000);
}
