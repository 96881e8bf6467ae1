import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_BUCKET, runEngine, startServer, writeSmallFiles } from '../harness';
import { fmtS, type Row } from '../table';

const COUNT = 240;
const LIMIT_PER_MINUTE = 120;

/**
 * 240 small files against the server's default limit (120 requests a minute): the engine's wall time
 * against the floor of 240 / 120 per minute = 2 minutes, and the 429 answers it received (client's hook).
 */
export async function rateLimitedFigure(dir: string): Promise<Row[]> {
  const server = await startServer(join(dir, 'server'), LIMIT_PER_MINUTE);
  try {
    const src = join(dir, 'src');
    writeSmallFiles(src, COUNT, 1024);
    const appDir = join(dir, 'app');
    mkdirSync(appDir);
    const r = await runEngine({
      baseUrl: server.url,
      apiKey: server.apiKey,
      appDir,
      folder: src,
      bucket: BENCH_BUCKET,
    });
    if (!r.allDone || r.counts.LIVE !== COUNT) throw new Error(`the engine left ${JSON.stringify(r.counts)}`);
    const floorMs = (COUNT / LIMIT_PER_MINUTE) * 60_000;
    const ratio = r.syncMs / floorMs;
    const refused = r.replies['429'] ?? 0;
    const sent = Object.values(r.requests).reduce((a, b) => a + b, 0);
    return [
      {
        figure: `${COUNT} files at 120/min: engine time`,
        measured: `${fmtS(r.syncMs)} (${sent} requests)`,
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
  } finally {
    await server.stop();
  }
}
