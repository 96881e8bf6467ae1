import { mkdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { writeRandomFile } from '../../shared/fixtures';
import { timeShell } from '../../shared/processes';
import { fmtMb, fmtS, type Row } from '../../shared/table';
import { engineInput, expectAllLive, runEngine, withServer } from '../harness';

const SIZE = 200 * 1024 * 1024;

/**
 * A 200 MB file: `sync --once` of a folder holding it (engine in a child process: hash + upload) against
 * `curl -F` of the same file to the same server; best of 2 each, alternated. Peak RSS of the engine process.
 */
export async function bigUploadFigure(dir: string): Promise<Row[]> {
  return withServer(dir, 0, async (server) => {
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
      const r = await runEngine(engineInput(server, dir, src, { app: `app-${i}`, perMinute: 0 }));
      expectAllLive(r, 1, 'the engine run');
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
  });
}
