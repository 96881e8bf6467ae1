import type { BenchServer } from '../../shared/processes';
import { type Served, verifiedRun } from '../../shared/served';
import { fmtMb, fmtS, type Row } from '../../shared/table';
import { engineInput, expectAllLive, runEngine, withServer } from '../harness';
import { bigFileFolder, curlUpload, receivedText } from '../uploads';

const SIZE = 200 * 1024 * 1024;

export interface BigUploadOptions {
  /** The file's size (200 MB for the record; smaller in the harness's own test). */
  size?: number;
  /** Runs of each side; the best is kept. */
  runs?: number;
  /**
   * The bucket of the engine's run `i`: each its own, so that every run uploads. The test plants the
   * old way (one bucket for all: the second run adopts the first's file) to see the harness fail.
   */
  bucketOf?: (run: number) => string;
}

/** Best of `runs` for curl and for the engine, alternated; every run's upload verified by the server. */
export async function bestUploads(
  server: BenchServer,
  dir: string,
  size: number,
  runs: number,
  bucketOf: (run: number) => string,
) {
  const { src, file } = bigFileFolder(dir, size);
  let curl = { ms: Number.POSITIVE_INFINITY, served: null as Served | null };
  let engine = { ms: Number.POSITIVE_INFINITY, served: null as Served | null };
  let peak = 0;
  for (let i = 0; i < runs; i++) {
    const c = await verifiedRun(server, { run: `curl's run ${i + 1}`, uploads: 1, bytes: size }, () =>
      curlUpload(server, file, `curl-${i}`),
    );
    if (c.result.ms < curl.ms) curl = { ms: c.result.ms, served: c.served };
    const e = await verifiedRun(server, { run: `the engine's run ${i + 1}`, uploads: 1, bytes: size }, () =>
      runEngine(engineInput(server, dir, src, { app: `app-${i}`, perMinute: 0, bucket: bucketOf(i) })),
    );
    expectAllLive(e.result, 1, `the engine's run ${i + 1}`);
    if (e.result.syncMs < engine.ms) engine = { ms: e.result.syncMs, served: e.served };
    peak = Math.max(peak, e.result.vmHwmMb);
  }
  return {
    curl: { ms: curl.ms, served: curl.served! },
    engine: { ms: engine.ms, served: engine.served! },
    peak,
  };
}

/**
 * A 200 MB file: `sync --once` of a folder holding it (engine in a child process: hash + upload) against
 * `curl -F` of the same file to the same server; best of 2 each, alternated, each run into a bucket of
 * its own and its upload counted by the server. Peak RSS of the engine process.
 */
export async function bigUploadFigure(dir: string, options: BigUploadOptions = {}): Promise<Row[]> {
  const size = options.size ?? SIZE;
  const bucketOf = options.bucketOf ?? ((i: number) => `bench-${i}`);
  return withServer(dir, 0, async (server) => {
    const { curl, engine, peak } = await bestUploads(server, dir, size, options.runs ?? 2, bucketOf);
    const ratio = engine.ms / curl.ms;
    const mb = `${Math.round(size / 1024 / 1024)} MB`;
    return [
      {
        figure: `${mb} upload: engine time (hash + upload)`,
        measured: `${fmtS(engine.ms)} (${receivedText(engine.served)})`,
        baseline: `curl -F ${fmtS(curl.ms)} (${receivedText(curl.served)})`,
        ratio: `${ratio.toFixed(2)}x curl's time`,
        target: '<= 1.15x',
        pass: ratio <= 1.15,
      },
      {
        figure: `${mb} upload: engine peak RSS (VmHWM)`,
        measured: fmtMb(peak),
        baseline: '-',
        ratio: '-',
        target: '< 200 MB',
        pass: peak < 200,
      },
    ];
  });
}
