import { mkdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { writeRandomFile } from '../../shared/fixtures';
import { LINK, linkUnavailable, withLinkServer } from '../../shared/link';
import { timeShell } from '../../shared/processes';
import { fmtS, type Row } from '../../shared/table';
import { engineInput, expectAllLive, runEngine } from '../harness';

const SIZE = 200 * 1024 * 1024;
export const LINK_LABEL = `${LINK.rateMbit} Mbit/s + ${LINK.oneWayMs} ms`;

/**
 * The 200 MB upload over a shaped link (shared/link.ts: tbf at 200 Mbit/s each way, 20 ms each way):
 * the engine (hash + upload, in its child process) against `curl -F` of the same file through the same
 * link to the same server; best of 2 each, alternated.
 */
export async function linkBigUploadFigure(dir: string): Promise<Row[]> {
  const figure = `200 MB upload over ${LINK_LABEL}: engine time`;
  const why = linkUnavailable();
  if (why) return [skippedRow(figure, why)];
  return withLinkServer(join(dir, 'server'), 0, async (server) => {
    const src = join(dir, 'src');
    mkdirSync(src);
    const file = join(src, 'video.mp4');
    writeRandomFile(file, SIZE);
    const past = new Date(Date.now() - 60_000);
    utimesSync(file, past, past);
    const curl = `curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $KEY" -F bucket=curl -F "file=@${file}" ${server.url}/api/assets/v1/files`;
    let curlMs = Number.POSITIVE_INFINITY;
    let engineMs = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 2; i++) {
      const c = await timeShell(curl, { KEY: server.apiKey });
      if (c.stdout !== '201') throw new Error(`curl's upload answered ${c.stdout}`);
      curlMs = Math.min(curlMs, c.ms);
      const r = await runEngine(engineInput(server, dir, src, { app: `app-${i}`, perMinute: 0 }));
      expectAllLive(r, 1, 'the engine run');
      engineMs = Math.min(engineMs, r.syncMs);
    }
    const ratio = engineMs / curlMs;
    return [
      {
        figure,
        measured: fmtS(engineMs),
        baseline: `curl -F ${fmtS(curlMs)}`,
        ratio: `${ratio.toFixed(3)}x curl's time`,
        target: '<= 1.05x',
        pass: ratio <= 1.05,
      },
    ];
  });
}

/** A figure that cannot be measured on this machine, and why (one clear line in the table). */
export function skippedRow(figure: string, why: string): Row {
  return {
    figure,
    measured: `skipped: no shaped link (${why})`,
    baseline: '-',
    ratio: '-',
    target: '-',
    pass: true,
    skipped: true,
  };
}
