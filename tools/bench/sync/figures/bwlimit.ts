import { verifiedRun } from '../../shared/served';
import { fmtS, type Row } from '../../shared/table';
import { engineInput, expectAllLive, runEngine, withServer } from '../harness';
import { bigFileFolder, receivedText } from '../uploads';

const MiB = 1024 * 1024;
const SIZE = 50 * MiB;
const RATE = 2 * MiB;

/**
 * The upload rate limit: a 50 MiB file synced with `--bwlimit 2M` (engine in a child process, the
 * server's limit off) against the time the limit itself allows, 50 MiB / 2 MiB/s = 25 s.
 */
export async function bwlimitFigure(dir: string): Promise<Row[]> {
  return withServer(dir, 0, async (server) => {
    const { src } = bigFileFolder(dir, SIZE);
    const { result: r, served: got } = await verifiedRun(
      server,
      { run: 'the limited run', uploads: 1, bytes: SIZE },
      () => runEngine({ ...engineInput(server, dir, src, { perMinute: 0 }), bwlimit: '2M' }),
    );
    expectAllLive(r, 1, 'the limited run');
    const ideal = (SIZE / RATE) * 1000;
    const ratio = r.syncMs / ideal;
    return [
      {
        figure: '50 MiB upload at --bwlimit 2M',
        measured: `${fmtS(r.syncMs)} (${receivedText(got)})`,
        baseline: `50 MiB / 2 MiB/s = ${fmtS(ideal)}`,
        ratio: `${ratio.toFixed(3)}x`,
        target: '0.95x to 1.05x',
        pass: ratio >= 0.95 && ratio <= 1.05,
      },
    ];
  });
}
