import { join } from 'node:path';
import { writeSmallFiles } from '../../shared/fixtures';
import { verifiedRun } from '../../shared/served';
import { fmtS, type Row } from '../../shared/table';
import { engineInput, expectAllLive, requestsSent, runEngine, withServer } from '../harness';
import { curlFolder, receivedText } from '../uploads';

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
    const claim = { uploads: COUNT, bytes: COUNT * SIZE };
    const { result: curl, served: curlServed } = await verifiedRun(
      server,
      { ...claim, run: "curl's run" },
      () => curlFolder(server, src, COUNT),
    );
    const { result: r, served: engineServed } = await verifiedRun(
      server,
      { ...claim, run: "the engine's run" },
      () => runEngine(engineInput(server, dir, src, { perMinute: 0 })),
    );
    expectAllLive(r, COUNT, 'the engine run');
    const sent = requestsSent(r);
    const perFile = sent / COUNT;
    const ratio = r.syncMs / curl.ms;
    return [
      {
        figure: `${COUNT} x 8 KB, no rate limit: engine time`,
        measured: `${fmtS(r.syncMs)} (${receivedText(engineServed)})`,
        baseline: `xargs -P4 curl ${fmtS(curl.ms)} (${receivedText(curlServed)})`,
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
