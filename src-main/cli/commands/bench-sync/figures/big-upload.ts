import { mkdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_BUCKET, runEngine, startServer, timeShell, writeRandomFile } from '../harness';
import { fmtMb, fmtS, type Row } from '../table';

const SIZE = 200 * 1024 * 1024;

/**
 * A 200 MB file: `sync --once` of a folder holding it (engine in a child process: hash + upload) against
 * `curl -F` of the same file to the same server; best of 2 each, alternated. Peak RSS of the engine process.
 */
export async function bigUploadFigure(dir: string): Promise<Row[]> {
  const server = await startServer(join(dir, 'server'), 0);
  try {
    const src = join(dir, 'src');
    mkdirSync(src);
    const file = join(src, 'video.mp4');
    writeRandomFile(file, SIZE);
    // Dropped a minute ago: past the engine's stability window, as a file found by a scan would be.
    const past = new Date(Date.now() - 60_000);
    utimesSync(file, past, past);
    const curl = `curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $KEY" -F bucket=curl -F "file=@${file}" ${server.url}/api/assets/v1/files`;
    let curlMs = Number.POSITIVE_INFINITY;
    let engineMs = Number.POSITIVE_INFINITY;
    let peak = 0;
    for (let i = 0; i < 2; i++) {
      const c = await timeShell(curl, { KEY: server.apiKey });
      if (c.stdout !== '201') throw new Error(`curl's upload answered ${c.stdout}`);
      curlMs = Math.min(curlMs, c.ms);
      const appDir = join(dir, `app-${i}`);
      mkdirSync(appDir);
      const r = await runEngine({
        baseUrl: server.url,
        apiKey: server.apiKey,
        appDir,
        folder: src,
        bucket: BENCH_BUCKET,
        perMinute: 0,
      });
      if (!r.allDone || r.counts.LIVE !== 1)
        throw new Error(`the engine did not upload the file: ${JSON.stringify(r.counts)}`);
      engineMs = Math.min(engineMs, r.syncMs);
      peak = Math.max(peak, r.vmHwmMb);
    }
    const ratio = engineMs / curlMs;
    return [
      {
        figure: '200 MB upload: engine time (hash + upload)',
        measured: fmtS(engineMs),
        baseline: `curl -F ${fmtS(curlMs)}`,
        ratio: `${ratio.toFixed(2)}x curl's time`,
        target: '<= 1.15x',
        pass: ratio <= 1.15,
      },
      {
        figure: '200 MB upload: engine peak RSS (VmHWM)',
        measured: fmtMb(peak),
        baseline: '-',
        ratio: '-',
        target: '< 200 MB',
        pass: peak < 200,
      },
    ];
  } finally {
    await server.stop();
  }
}
