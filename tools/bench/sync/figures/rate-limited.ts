import { join } from 'node:path';
import { writeSmallFiles } from '../../shared/fixtures';
import { verifiedRun } from '../../shared/served';
import { fmtS, type Row } from '../../shared/table';
import { engineInput, expectAllLive, requestsSent, runEngine, withServer } from '../harness';
import { receivedText } from '../uploads';

const COUNT = 240;
const LIMIT_PER_MINUTE = 120;

/**
 * 240 small files against the server's default limit (120 requests a minute): the engine's wall time
 * against the floor of 240 / 120 per minute = 2 minutes, and the 429 answers it received (client's hook).
 */
export async function rateLimitedFigure(dir: string): Promise<Row[]> {
  return withServer(dir, LIMIT_PER_MINUTE, async (server) => {
    const src = join(dir, 'src');
    writeSmallFiles(src, COUNT, 1024);
    // Refused requests (429) count as upload requests at the server too: they have their own row.
    const { result: r, served: got } = await verifiedRun(
      server,
      { run: "the engine's run", uploads: COUNT, bytes: COUNT * 1024, extraRequests: true },
      () => runEngine(engineInput(server, dir, src)),
    );
    expectAllLive(r, COUNT, 'the engine run');
    const floorMs = (COUNT / LIMIT_PER_MINUTE) * 60_000;
    const ratio = r.syncMs / floorMs;
    const refused = r.replies['429'] ?? 0;
    const sent = requestsSent(r);
    return [
      {
        figure: `${COUNT} files at 120/min: engine time`,
        measured: `${fmtS(r.syncMs)} (${sent} requests; ${receivedText(got)})`,
        baseline: `floor ${fmtS(floorMs)}`,
        ratio: `${ratio.toFixed(3)}x the floor`,
        target: '<= 1.05x',
        pass: ratio <= 1.05,
      },
      {
        figure: `${COUNT} files at 120/min: 429 answers`,
        measured: String(refused),
        baseline: '-',
        ratio: '-',
        target: '0',
        pass: refused === 0,
      },
    ];
  });
}
