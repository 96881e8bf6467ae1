import { join } from 'node:path';
import { writeSmallFiles } from '../../shared/fixtures';
import { timeShell } from '../../shared/processes';
import { fmtS, type Row } from '../../shared/table';
import { engineInput, expectAllLive, requestsSent, runEngine, withServer } from '../harness';

const COUNT = 2_000;
const SIZE = 8 * 1024;

/**
 * 2,000 files of 8 KB, the server's rate limit off (and the client's budget off to match): the engine
 * against `xargs -P4 curl` uploading the same files; requests per file counted by the client's hook.
 */
export async function smallFilesFigure(dir: string): Promise<Row[]> {
  return withServer(dir, 0, async (server) => {
    const src = join(dir, 'src');
    writeSmallFiles(src, COUNT, SIZE);
    const curl = await timeShell(
      `find ${src} -type f -print0 | xargs -0 -P4 -I{} curl -s -o /dev/null -w '%{http_code}\\n' -H "Authorization: Bearer $KEY" -F bucket=curl -F "file=@{}" ${server.url}/api/assets/v1/files`,
      { KEY: server.apiKey },
    );
    const created = curl.stdout.split('\n').filter((l) => l === '201').length;
    if (created !== COUNT) throw new Error(`curl uploaded ${created} of ${COUNT} files`);
    const r = await runEngine(engineInput(server, dir, src, { perMinute: 0 }));
    expectAllLive(r, COUNT, 'the engine run');
    const sent = requestsSent(r);
    const perFile = sent / COUNT;
    const ratio = r.syncMs / curl.ms;
    return [
      {
        figure: `${COUNT} x 8 KB, no rate limit: engine time`,
        measured: fmtS(r.syncMs),
        baseline: `xargs -P4 curl ${fmtS(curl.ms)}`,
        ratio: `${ratio.toFixed(2)}x curl's time`,
        target: '< 1.00x',
        pass: ratio < 1,
      },
      {
        figure: `${COUNT} x 8 KB: requests sent per file`,
        measured: `${sent} requests`,
        baseline: `${COUNT} files`,
        ratio: perFile.toFixed(4),
        target: '<= 1.01',
        pass: perFile <= 1.01,
      },
    ];
  });
}
