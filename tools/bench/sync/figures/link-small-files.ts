import { join } from 'node:path';
import { writeSmallFiles } from '../../shared/fixtures';
import { linkUnavailable, withLinkServer } from '../../shared/link';
import { verifiedRun } from '../../shared/served';
import { fmtS, type Row } from '../../shared/table';
import { engineInput, expectAllLive, runEngine } from '../harness';
import { curlFolder, receivedText } from '../uploads';
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
    const claim = { uploads: COUNT, bytes: COUNT * SIZE };
    const before = server.connections();
    const { result: curl, served: curlServed } = await verifiedRun(
      server,
      { ...claim, run: "curl's run" },
      () => curlFolder(server, src, COUNT),
    );
    const curlConnections = server.connections() - before;
    const mid = server.connections();
    const { result: r, served: engineServed } = await verifiedRun(
      server,
      { ...claim, run: "the engine's run" },
      () => runEngine(engineInput(server, dir, src, { perMinute: 0 })),
    );
    expectAllLive(r, COUNT, 'the engine run');
    const engineConnections = server.connections() - mid;
    const ratio = r.syncMs / curl.ms;
    return [
      {
        figure,
        measured: `${fmtS(r.syncMs)} (${engineConnections} connections; ${receivedText(engineServed)})`,
        baseline: `xargs -P4 curl ${fmtS(curl.ms)} (${curlConnections} connections; ${receivedText(curlServed)})`,
        ratio: `${ratio.toFixed(2)}x curl's time`,
        target: '< 1.00x',
        pass: ratio < 1,
      },
    ];
  });
}
