import { cores, cpuFloorMs, processCpuMs } from '../../shared/cpu';
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

/** One kept run: its time, what the server received, and the CPU it and the server spent meanwhile. */
export interface UploadRun {
  ms: number;
  served: Served;
  cpuMs: number;
  serverCpuMs: number;
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
  let curl: UploadRun | null = null;
  let engine: UploadRun | null = null;
  let peak = 0;
  // The server's CPU over a run: every thread of its process, read before and after.
  const withServerCpu = async <T>(run: () => Promise<T>) => {
    const before = processCpuMs(server.pid);
    const result = await run();
    return { ...result, serverCpuMs: processCpuMs(server.pid) - before };
  };
  for (let i = 0; i < runs; i++) {
    const c = await withServerCpu(() =>
      verifiedRun(server, { run: `curl's run ${i + 1}`, uploads: 1, bytes: size }, () =>
        curlUpload(server, file, `curl-${i}`),
      ),
    );
    if (!curl || c.result.ms < curl.ms)
      curl = { ms: c.result.ms, served: c.served, cpuMs: c.result.cpuMs, serverCpuMs: c.serverCpuMs };
    const e = await withServerCpu(() =>
      verifiedRun(server, { run: `the engine's run ${i + 1}`, uploads: 1, bytes: size }, () =>
        runEngine(engineInput(server, dir, src, { app: `app-${i}`, perMinute: 0, bucket: bucketOf(i) })),
      ),
    );
    expectAllLive(e.result, 1, `the engine's run ${i + 1}`);
    if (!engine || e.result.syncMs < engine.ms)
      engine = {
        ms: e.result.syncMs,
        served: e.served,
        cpuMs: e.result.syncCpuMs,
        serverCpuMs: e.serverCpuMs,
      };
    peak = Math.max(peak, e.result.vmHwmMb);
  }
  return { curl: curl!, engine: engine!, peak };
}

/** "CPU 0.85 s + the server's 1.10 s": what a run and the server spent while it ran. */
export const cpuText = (r: UploadRun) => `CPU ${fmtS(r.cpuMs)} + the server's ${fmtS(r.serverCpuMs)}`;

/**
 * The least time the engine's run could take on this machine's cores, given the CPU it and the server
 * spent (over curl's time): above the target, the figure is a race for the cores, not a wait.
 */
export const cpuFloorText = (engine: UploadRun, curl: UploadRun) =>
  `its CPU over ${cores()} cores alone: ${(cpuFloorMs(engine.cpuMs + engine.serverCpuMs) / curl.ms).toFixed(2)}x`;

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
        measured: `${fmtS(engine.ms)} (${receivedText(engine.served)}; ${cpuText(engine)})`,
        baseline: `curl -F ${fmtS(curl.ms)} (${receivedText(curl.served)}; ${cpuText(curl)})`,
        ratio: `${ratio.toFixed(2)}x curl's time (${cpuFloorText(engine, curl)})`,
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
