import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Pool } from 'undici';
import { writeRandomFile } from './shared/fixtures';
import { procStatusMb } from './shared/proc-status';
import { bestOf, startReadyChild, startServer, stopChildren } from './shared/processes';
import { printReport } from './shared/recorded';
import { UPLOAD_OVERHEAD_BYTES, verifiedRun } from './shared/served';
import { fmtMb, fmtS, type Row } from './shared/table';

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
  try {
    const file = join(dir, 'upload.mp4');
    writeRandomFile(file, UPLOAD_BYTES);

    const sink = await startReadyChild([process.execPath, '-e', SINK_SOURCE, join(dir, 'sink.bin')]);
    const sinkFile = join(dir, 'sink.bin');
    const sinkSeconds = await bestOf(2, async () => {
      const s = await curlUpload(`${sink.url}/`, file, []);
      // The sink wrote the whole body (the file and its multipart framing): the baseline did the work.
      const got = statSync(sinkFile).size;
      if (got < UPLOAD_BYTES || got > UPLOAD_BYTES + UPLOAD_OVERHEAD_BYTES)
        throw new Error(`the sink received ${got} bytes of a ${UPLOAD_BYTES}-byte upload`);
      return s;
    });

    const server = await startServer(join(dir, 'server'), 0);
    const key = server.apiKey;
    const auth = ['-H', `Authorization: Bearer ${key}`];
    const rssIdle = procStatusMb(server.pid, 'VmHWM');
    // Each upload counted by the server itself (requests and bytes read): a run that sent less is an error.
    const serverSeconds = await bestOf(
      2,
      async () =>
        (
          await verifiedRun(
            server,
            { run: "curl's upload to the server", uploads: 1, bytes: UPLOAD_BYTES },
            () => curlUpload(`${server.url}/api/assets/v1/files`, file, auth),
          )
        ).result,
    );
    const rssPeak = procStatusMb(server.pid, 'VmHWM');
    const mb = UPLOAD_BYTES / 1024 / 1024;
    const ratio = sinkSeconds / serverSeconds;

    const pool = new Pool(server.url, { connections: 16 });
    try {
      const seedStart = performance.now();
      await seed(pool, key, SEED_FILES);
      const seedSeconds = (performance.now() - seedStart) / 1000;
      // The listing pages through what was seeded: the server must hold every file (and the two uploads).
      const total = await storedFiles(pool, key);
      if (total !== SEED_FILES + 2) throw new Error(`the server holds ${total} files, not ${SEED_FILES + 2}`);
      const rps = await listRate(pool, key, LIST_SECONDS);
      const rate = (seconds: number) => `${(mb / seconds).toFixed(0)} MB/s`;

      const rows: Row[] = [
        {
          figure: '200 MB multipart upload (best of 2)',
          measured: `${fmtS(serverSeconds * 1000)} ${rate(serverSeconds)}`,
          baseline: `curl -> minimal Node sink ${fmtS(sinkSeconds * 1000)} ${rate(sinkSeconds)}`,
          ratio: `${ratio.toFixed(2)}x the sink's throughput`,
          target: '>= 0.70x',
          pass: ratio >= 0.7,
        },
        {
          figure: 'server peak RSS (VmHWM) during it',
          measured: `${fmtMb(rssPeak)} (idle ${fmtMb(rssIdle)})`,
          baseline: '-',
          ratio: '-',
          target: '< 150 MB',
          pass: rssPeak < 150,
        },
        {
          figure: `GET /files?per_page=100 with ${SEED_FILES} files, 16 connections`,
          measured: `${rps.toFixed(0)} requests/s over ${LIST_SECONDS} s (seeded in ${seedSeconds.toFixed(1)} s)`,
          baseline: '-',
          ratio: '-',
          target: '>= 1000/s',
          pass: rps >= 1000,
        },
      ];
      printReport(
        'bench:server',
        'reference server benchmark (one run; baselines measured in this run)',
        rows,
      );
      return rows.every((r) => r.pass) ? 0 : 1;
    } finally {
      await pool.close();
    }
  } finally {
    await stopChildren();
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

async function storedFiles(pool: Pool, key: string): Promise<number> {
  const res = await pool.request({
    path: '/api/assets/v1/files?per_page=1',
    method: 'GET',
    headers: { authorization: `Bearer ${key}` },
  });
  const body = (await res.body.json()) as { meta?: { total?: number } };
  return body.meta?.total ?? -1;
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
