import { join } from 'node:path';
import { writeSmallFiles } from '../../shared/fixtures';
import { linkUnavailable, withLinkServer } from '../../shared/link';
import { timeShell } from '../../shared/processes';
import { fmtS, type Row } from '../../shared/table';
import { engineInput, expectAllLive, runEngine } from '../harness';
import { LINK_LABEL, skippedRow } from './link-big-upload';

const COUNT = 2_000;
const SIZE = 8 * 1024;

/**
 * 2,000 files of 8 KB over the shaped link (shared/link.ts), server limit and client budget off: the
 * engine against `xargs -P4 curl` of the same files through the same link. Here each request costs a
 * round trip (40 ms) and each new connection one more, so connection reuse and concurrency decide it;
 * the proxy counts the connections each side opened.
 */
export async function linkSmallFilesFigure(dir: string): Promise<Row[]> {
  const figure = `${COUNT} x 8 KB over ${LINK_LABEL}: engine time`;
  const why = linkUnavailable();
  if (why) return [skippedRow(figure, why)];
  return withLinkServer(join(dir, 'server'), 0, async (server) => {
    const src = join(dir, 'src');
    writeSmallFiles(src, COUNT, SIZE);
    const before = server.connections();
    const curl = await timeShell(
      `find ${src} -type f -print0 | xargs -0 -P4 -I{} curl -s -o /dev/null -w '%{http_code}\\n' -H "Authorization: Bearer $KEY" -F bucket=curl -F "file=@{}" ${server.url}/api/assets/v1/files`,
      { KEY: server.apiKey },
    );
    const curlConnections = server.connections() - before;
    const created = curl.stdout.split('\n').filter((l) => l === '201').length;
    if (created !== COUNT) throw new Error(`curl uploaded ${created} of ${COUNT} files`);
    const mid = server.connections();
    const r = await runEngine(engineInput(server, dir, src, { perMinute: 0 }));
    expectAllLive(r, COUNT, 'the engine run');
    const engineConnections = server.connections() - mid;
    const ratio = r.syncMs / curl.ms;
    return [
      {
        figure,
        measured: `${fmtS(r.syncMs)} (${engineConnections} connections)`,
        baseline: `xargs -P4 curl ${fmtS(curl.ms)} (${curlConnections} connections)`,
        ratio: `${ratio.toFixed(2)}x curl's time`,
        target: '< 1.00x',
        pass: ratio < 1,
      },
    ];
  });
}
