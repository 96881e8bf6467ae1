import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { type DeskRun, exited, newAccount, startBenchServer, startDesks } from '../../office/desks';
import { writeSmallFiles } from '../../shared/fixtures';
import { type BenchServer, REPO, runToEnd, startServer } from '../../shared/processes';
import { type RequestTimes, startRequestTimes } from '../../shared/request-times';
import { fmtS, type Row } from '../../shared/table';
import { curlFolder } from '../uploads';

/**
 * A drop goes up at once (issue 36): small files synced by `assets-sync sync DIR --once` (the CLI as a user
 * runs it: a desk of the office, alone here) against the reference server's real limit (120 in any 60 s,
 * sliding, Retry-After), from spawn to exit and to the first LIVE, against `xargs -P4 curl` of the same files
 * to a server of its own (its window empty too). Then the same drops by one desk of an office of 4 whose
 * three others run long syncs.
 */

const SIZE = 5 * 1024;
const LIMIT = 120;
const WINDOW_MS = 60_000;
/** The office's ceiling: the single desk's margin under the service's 120. */
const CEILING = 115;

interface DropRun {
  exitMs: number;
  firstLiveMs: number | null;
  live: number;
}

/** One `sync DIR --once --json` process, timed from spawn; throws unless it exits 0 with `count` files live. */
async function syncOnce(o: {
  url: string;
  key: string;
  dir: string;
  data: string;
  officeDir: string;
  count: number;
}): Promise<DropRun> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      join(REPO, 'bin', 'assets-sync.mjs'),
      'sync',
      o.dir,
      '--once',
      '--json',
      '--data-dir',
      o.data,
      '--base-url',
      o.url,
    ],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
      cwd: REPO,
      env: { ...process.env, ASSETS_API_KEY: o.key, ASSETS_SYNC_OFFICE_DIR: o.officeDir },
    },
  );
  const run: DropRun = { exitMs: 0, firstLiveMs: null, live: 0 };
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (!line.includes('"LIVE"')) return;
    try {
      const e = JSON.parse(line) as { event?: string; to?: string };
      if (e.event !== 'file' || e.to !== 'LIVE') return;
    } catch {
      return;
    }
    run.live++;
    run.firstLiveMs ??= performance.now() - started;
  });
  await runToEnd(child, `sync --once of ${o.count} files`);
  run.exitMs = performance.now() - started;
  if (run.live !== o.count) throw new Error(`sync --once made ${run.live} of ${o.count} files live`);
  return run;
}

async function refusedAt(server: { adminUrl: string; adminToken: string }): Promise<number> {
  const r = await fetch(`${server.adminUrl}/__admin/v1/requests`, {
    headers: { 'x-admin-token': server.adminToken },
  });
  if (!r.ok) throw new Error(`GET /__admin/v1/requests answered ${r.status}`);
  return ((await r.json()) as { rate_limited: number }).rate_limited;
}

/** Spawn to the first `GET /me`, the listing, the first upload (from the wire), and the first LIVE. */
function firstSeconds(times: RequestTimes, spawnedAt: number, run: DropRun): string {
  const at = (method: string, route: string) => {
    const r = times.requests.find((q) => q.method === method && q.route === route);
    return r ? fmtS(r.at - spawnedAt) : '-';
  };
  return `/me ${at('GET', '/api/assets/v1/me')}, listing ${at('GET', '/api/assets/v1/files')}, first upload ${at('POST', '/api/assets/v1/files')}, first LIVE ${run.firstLiveMs === null ? '-' : fmtS(run.firstLiveMs)}`;
}

/** `count` small files by a lone desk against curl's time; with `curlTarget` null, no curl row (the 240). */
export async function dropFigure(dir: string, count: number, targetVsCurl: number | null): Promise<Row[]> {
  const src = join(dir, 'src');
  writeSmallFiles(src, count, SIZE);
  const rows: Row[] = [];
  let curlMs: number | null = null;
  if (targetVsCurl !== null) {
    // Its own server: the desk's run then meets an empty window too.
    const cs = await startServer(join(dir, 'curl-server'), LIMIT);
    try {
      curlMs = (await curlFolder(cs, src, count)).ms;
      const refused = await refusedAt(cs);
      if (refused > 0) throw new Error(`curl's ${count} uploads met ${refused} answers 429`);
    } finally {
      await cs.stop();
    }
  }
  const server: BenchServer = await startServer(join(dir, 'server'), LIMIT);
  const times = await startRequestTimes(server.url);
  try {
    const spawnedAt = performance.now();
    const run = await syncOnce({
      url: times.url,
      key: server.apiKey,
      dir: src,
      data: join(dir, 'app'),
      officeDir: join(dir, 'office'),
      count,
    });
    const refused = await refusedAt(server);
    const label = `${count} x 5 KB, lone desk, 120/min`;
    if (curlMs !== null && targetVsCurl !== null) {
      const ratio = run.exitMs / curlMs;
      rows.push({
        figure: `${label}: sync --once spawn to exit`,
        measured: `${fmtS(run.exitMs)} (first LIVE ${fmtS(run.firstLiveMs ?? 0)})`,
        baseline: `xargs -P4 curl ${fmtS(curlMs)}`,
        ratio: `${ratio.toFixed(2)}x curl's time`,
        target: `<= ${targetVsCurl.toFixed(1)}x`,
        pass: ratio <= targetVsCurl,
      });
    } else {
      const floorMs = (count / LIMIT) * WINDOW_MS;
      const ratio = run.exitMs / floorMs;
      rows.push({
        figure: `${label}: sync --once spawn to exit`,
        measured: `${fmtS(run.exitMs)} (first LIVE ${fmtS(run.firstLiveMs ?? 0)})`,
        baseline: `floor ${fmtS(floorMs)} (${count} / 120 a minute)`,
        ratio: `${ratio.toFixed(3)}x the floor`,
        target: '<= 1.05x',
        pass: ratio <= 1.05,
      });
    }
    rows.push({
      figure: `${label}: 429 answers`,
      measured: String(refused),
      baseline: '-',
      ratio: '-',
      target: '0',
      pass: refused === 0,
    });
    rows.push({
      figure: `${label}: where the first seconds go (from spawn)`,
      measured: firstSeconds(times, spawnedAt, run),
      baseline: '-',
      ratio: '-',
      target: 'shown',
      pass: run.firstLiveMs !== null,
    });
  } finally {
    await times.close();
    await server.stop();
  }
  return rows;
}

/**
 * One desk of an office of 4 drops 20, then 100 small files (`sync --once`, as above) while the three others
 * run long syncs (`sync DIR`, 400 files each: busy through both drops). Fair by demand, the drop's desk is
 * owed at least an equal share (115 / 4 a minute) of the office's steady rate: its time against that.
 */
export async function officeDropFigure(dir: string): Promise<Row[]> {
  const server = await startBenchServer(dir, 'sliding');
  const officeDir = join(dir, 'office');
  const env = { ASSETS_SYNC_OFFICE_DIR: officeDir };
  const rows: Row[] = [];
  const long = await startDesks({ server, root: join(dir, 'long'), count: 3, files: 400, once: false, env });
  // A fourth desk, running and in sync with an empty folder: files dropped into it are fresh drops.
  const [watcher] = await startDesks({
    server,
    root: join(dir, 'watch'),
    count: 1,
    files: 0,
    once: false,
    env,
  });
  long.push(watcher!);
  try {
    // The office is formed and sending: every long desk has a file live, the watching desk is in sync.
    const deadline = Date.now() + 120_000;
    while (long.slice(0, 3).some((d) => d.live === 0) || watcher!.doneAt === null) {
      if (Date.now() > deadline) throw new Error('the long syncs had no file live after 120 s');
      if (long.some((d) => d.exitCode !== null)) throw new Error('a long sync ended before the drops');
      await new Promise((r) => setTimeout(r, 200));
    }
    const before = (await server.admin('GET', '/requests')) as { rate_limited: number };
    for (const count of [20, 100]) {
      const src = join(dir, `drop-${count}`, 'files');
      mkdirSync(src, { recursive: true });
      writeSmallFiles(src, count, SIZE);
      const key = await newAccount(server, `drop ${count}`);
      const run = await syncOnce({
        url: server.url,
        key,
        dir: src,
        data: join(dir, `drop-${count}`, 'data'),
        officeDir,
        count,
      });
      // Its requests (the files, /me, the listing) at an equal share of the office's ceiling.
      const shareMs = ((count + 2) / (CEILING / 4)) * WINDOW_MS;
      const ratio = run.exitMs / shareMs;
      rows.push({
        figure: `${count} x 5 KB, 1 desk of an office of 4 (3 long syncs): sync --once spawn to exit`,
        measured: `${fmtS(run.exitMs)} (first LIVE ${fmtS(run.firstLiveMs ?? 0)})`,
        baseline: `an equal share (115/4 a min): ${fmtS(shareMs)}`,
        ratio: `${ratio.toFixed(2)}x`,
        target: '<= 1.00x',
        pass: ratio <= 1,
      });
    }
    for (const count of [20, 100]) {
      const drop = await dropInto(watcher!, join(dir, 'watch', 'desk-0', 'files', `drop-${count}`), count);
      const shareMs = (count / (CEILING / 4)) * WINDOW_MS;
      const ratio = drop.allMs / shareMs;
      rows.push({
        figure: `${count} x 5 KB dropped into a watched folder, 1 desk of an office of 4 (3 long syncs): to all live`,
        measured: `${fmtS(drop.allMs)} (first LIVE ${fmtS(drop.firstMs)})`,
        baseline: `an equal share (115/4 a min): ${fmtS(shareMs)}`,
        ratio: `${ratio.toFixed(2)}x`,
        target: '<= 1.00x',
        pass: ratio <= 1,
      });
    }
    const after = (await server.admin('GET', '/requests')) as { rate_limited: number; total: number };
    const refused = after.rate_limited - before.rate_limited;
    rows.push({
      figure: 'office of 4 (3 long syncs, 2 drops): 429 answers during the drops',
      measured: String(refused),
      baseline: `${after.total} requests in the run`,
      ratio: '-',
      target: '0',
      pass: refused === 0,
    });
  } finally {
    for (const d of long) d.child.kill('SIGTERM');
    await Promise.all(long.map(exited));
    await server.stop();
  }
  return rows;
}

/** Writes `count` small files into `folder` (inside a running desk's watched folder) and times them to LIVE. */
async function dropInto(
  d: DeskRun,
  folder: string,
  count: number,
): Promise<{ firstMs: number; allMs: number }> {
  const before = d.live;
  const t0 = Date.now();
  writeSmallFiles(folder, count, SIZE);
  const deadline = t0 + 600_000;
  while (d.live < before + count) {
    if (Date.now() > deadline)
      throw new Error(`${d.live - before} of ${count} dropped files live after 600 s`);
    if (d.child.exitCode !== null) throw new Error('the watching desk ended before its drop was live');
    await new Promise((r) => setTimeout(r, 20));
  }
  const allMs = Date.now() - t0;
  return { firstMs: d.startedAt + d.liveAt[before]! - t0, allMs };
}

/**
 * A running desk alone (`sync DIR`, in sync with an empty folder): one file dropped into its folder, to LIVE;
 * then 100, against `xargs -P4 curl` of the same 100 to a server of its own.
 */
export async function watchDropFigure(dir: string): Promise<Row[]> {
  const src = join(dir, 'curl-src');
  writeSmallFiles(src, 100, SIZE);
  const cs = await startServer(join(dir, 'curl-server'), LIMIT);
  let curlMs: number;
  try {
    curlMs = (await curlFolder(cs, src, 100)).ms;
  } finally {
    await cs.stop();
  }
  const server = await startBenchServer(dir, 'sliding');
  const [desk] = await startDesks({
    server,
    root: join(dir, 'desk'),
    count: 1,
    files: 0,
    once: false,
    env: { ASSETS_SYNC_OFFICE_DIR: join(dir, 'office') },
  });
  try {
    const deadline = Date.now() + 120_000;
    while (desk!.doneAt === null) {
      if (Date.now() > deadline) throw new Error('the running desk was not in sync after 120 s');
      await new Promise((r) => setTimeout(r, 50));
    }
    const folder = join(dir, 'desk', 'desk-0', 'files');
    const one = await dropInto(desk!, join(folder, 'one'), 1);
    const hundred = await dropInto(desk!, join(folder, 'hundred'), 100);
    const refused = ((await server.admin('GET', '/requests')) as { rate_limited: number }).rate_limited;
    const ratio = hundred.allMs / curlMs;
    return [
      {
        figure: '1 x 5 KB dropped into the watched folder of a running desk, alone: to LIVE',
        measured: fmtS(one.firstMs),
        baseline: '-',
        ratio: '-',
        target: '<= 2 s',
        pass: one.firstMs <= 2_000,
      },
      {
        figure: '100 x 5 KB dropped into the watched folder of a running desk, alone: to all live',
        measured: `${fmtS(hundred.allMs)} (first LIVE ${fmtS(hundred.firstMs)})`,
        baseline: `xargs -P4 curl ${fmtS(curlMs)}`,
        ratio: `${ratio.toFixed(2)}x curl's time`,
        target: '<= 2.0x',
        pass: ratio <= 2,
      },
      {
        figure: 'drops into a running desk, alone: 429 answers',
        measured: String(refused),
        baseline: '-',
        ratio: '-',
        target: '0',
        pass: refused === 0,
      },
    ];
  } finally {
    desk!.child.kill('SIGTERM');
    await exited(desk!);
    await server.stop();
  }
}
