import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { DEFAULT_BACKGROUND_SHARE, DEFAULT_FILE_API_PER_MINUTE } from '../../../src-main/core/internal';
import { cliEntryArgs } from '../../../src-main/launcher/cli-entry';
import { bestOf, REPO, runToEnd, startReadyChild, stopChildren } from '../shared/processes';
import { printReport } from '../shared/recorded';
import { fmtMb, fmtS } from '../shared/table';

const FILES = 100_000;
const NEW_FILES = 50;
const BUCKETS = ['b1', 'b2', 'b3', 'b4'];

/**
 * `npm run bench:remote`, one run: the remote index of 100,000 files on the reference server (seeded
 * through its admin surface, not 100,000 uploads), each figure against a baseline measured in this run:
 * 1. time to the first rows, cold (a new app database, the first page fetched) vs one listing request;
 * 2. time to the first rows, warm (the filled index opened again) vs the cold figure;
 * 3. requests of the incremental refresh after 50 new files vs listing everything (the old `files`);
 * 4. requests and time of a full walk vs listing everything into memory (the old listing);
 * 5. RSS of a process with the index open and queried vs one holding the listing in memory;
 * 6. search, sort and count over 100,000 rows vs the same in JavaScript over the array in memory.
 * The server's limit is off so that requests, not the minute, are measured; the walk's time at the
 * default limit follows from its requests (5% of 115 a minute).
 */
export async function run(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-remote-'));
  const adminToken = randomBytes(16).toString('hex');
  try {
    const server = await startReadyChild([
      process.execPath,
      join(REPO, 'bin', 'assets-sync.mjs'),
      'reference-server',
      '--port',
      '0',
      '--rate-limit-per-minute',
      '0',
      '--admin-token',
      adminToken,
      '--data-dir',
      join(dir, 'server'),
    ]);
    const baseUrl = server.url;
    const demo = server.ready.demo as { api_key: string; client_id: number };
    const admin = async (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) => {
      const r = await request(`${baseUrl}/__admin/v1${path}`, {
        method,
        headers: { 'x-admin-token': adminToken, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const json = (await r.body.json()) as Record<string, unknown>;
      if (r.statusCode >= 300) throw new Error(`admin ${path}: ${r.statusCode} ${JSON.stringify(json)}`);
      return json;
    };
    const seedStart = performance.now();
    await admin('POST', '/files/seed', { client_id: demo.client_id, count: FILES, buckets: BUCKETS });
    const seedMs = performance.now() - seedStart;
    const served = async () => (await admin('GET', '/requests')).by_route as Record<string, number>;

    const onePage = await bestOf(5, async () => {
      const t = performance.now();
      const r = await request(`${baseUrl}/api/assets/v1/files?per_page=100`, {
        headers: { authorization: `Bearer ${demo.api_key}` },
      });
      await r.body.text();
      return performance.now() - t;
    });

    const appDir = join(dir, 'app');
    const args = { appDir, baseUrl, apiKey: demo.api_key, clientId: demo.client_id };
    // Each step's work checked outside it: the listing requests the server counted, and what was filled.
    const listed = async <T>(step: () => Promise<T>) => {
      await admin('DELETE', '/requests');
      const r = await step();
      return { r, served: (await served())['GET /files'] ?? 0 };
    };
    const { r: cold, served: coldServed } = await listed(() => child('cold', args));
    if (cold.count !== FILES || coldServed !== cold.requests)
      throw new Error(
        `the first fill indexed ${cold.count} of ${FILES} files in ${cold.requests} requests (the server counted ${coldServed})`,
      );
    const warm = await child('warm', args);
    await admin('POST', '/files/seed', { client_id: demo.client_id, count: NEW_FILES, prefix: 'new-' });
    const { r: refresh, served: refreshServed } = await listed(() => child('refresh', args));
    const { r: walk, served: walkServed } = await listed(() => child('walk', args));
    if (walkServed !== walk.requests)
      throw new Error(`the walk says ${walk.requests} requests, the server counted ${walkServed}`);
    const memory = await child('memory', args);
    if (memory.count !== FILES + NEW_FILES)
      throw new Error(`listing into memory held ${memory.count} of ${FILES + NEW_FILES} files`);
    await server.stop();

    const q = warm.queries as Record<string, number>;
    const m = memory.queries as Record<string, number>;
    const perMinute = Math.max(1, Math.floor(DEFAULT_FILE_API_PER_MINUTE * DEFAULT_BACKGROUND_SHARE));
    const walkAtLimitMin = (walk.requests as number) / perMinute;
    const ms = (v: unknown) => `${(v as number).toFixed(1)} ms`;
    const rows = [
      {
        figure: 'first rows, cold (new app DB, first page fetched)',
        measured: ms(cold.firstRowsMs),
        baseline: `one listing request ${ms(onePage)}`,
        ratio: `${((cold.firstRowsMs as number) / onePage).toFixed(1)}x`,
        target: '< 1 s',
        pass: (cold.firstRowsMs as number) < 1000,
      },
      {
        figure: `first rows, warm (${FILES.toLocaleString('en')} indexed, reopened)`,
        measured: ms(warm.firstRowsMs),
        baseline: `cold ${ms(cold.firstRowsMs)}`,
        ratio: `${((warm.firstRowsMs as number) / (cold.firstRowsMs as number)).toFixed(2)}x`,
        target: '< 1 s',
        pass: (warm.firstRowsMs as number) < 1000,
      },
      {
        figure: `refresh after ${NEW_FILES} new files: listing requests`,
        measured: `${refresh.requests} (server counted ${refreshServed})`,
        baseline: `listing all: ${memory.requests}`,
        ratio: `${((refresh.requests as number) / (memory.requests as number)).toFixed(4)}x`,
        target: '1',
        pass: refresh.requests === 1 && refreshServed === 1,
      },
      {
        figure: 'full walk (limit off): requests, time',
        measured: `${walk.requests}, ${fmtS(walk.ms as number)}`,
        baseline: `listing all into memory ${memory.requests}, ${fmtS(memory.listMs as number)}`,
        ratio: `${((walk.ms as number) / (memory.listMs as number)).toFixed(2)}x time`,
        target: `<= pages + 2 (at ${perMinute}/min: ${walkAtLimitMin.toFixed(0)} min)`,
        pass: (walk.requests as number) <= Math.ceil((FILES + NEW_FILES) / 100) + 2,
      },
      {
        figure: 'first fill, cold: requests, time',
        measured: `${cold.requests}, ${fmtS(cold.fillMs as number)}`,
        baseline: `listing all into memory ${fmtS(memory.listMs as number)}`,
        ratio: `${((cold.fillMs as number) / (memory.listMs as number)).toFixed(2)}x`,
        target: '-',
        pass: true,
      },
      {
        figure: 'RSS with the index open and queried',
        measured: fmtMb(warm.rssMb as number),
        baseline: `listing held in memory ${fmtMb(memory.rssMb as number)}`,
        ratio: `${((warm.rssMb as number) / (memory.rssMb as number)).toFixed(2)}x`,
        target: '< 1x',
        pass: (warm.rssMb as number) < (memory.rssMb as number),
      },
      ...(
        [
          ['search, rare name (first 100)', 'search', 'search'],
          ['search, common part (first 100)', 'common', 'common'],
          ['bucket filter, sorted by name (first 100)', 'byName', 'byName'],
          ['count and bytes of all', 'summary', 'summary'],
        ] as const
      ).map(([figure, mine, theirs]) => ({
        figure: `query: ${figure}`,
        measured: ms(q[mine]),
        baseline: `JS over the array ${ms(m[theirs])}`,
        ratio: `${(q[mine]! / m[theirs]!).toFixed(2)}x`,
        target: '< 50 ms',
        pass: q[mine]! < 50,
      })),
      {
        figure: 'query: count of a search and type filter',
        measured: ms(q.summarySearch),
        baseline: '-',
        ratio: '-',
        target: '< 50 ms',
        pass: q.summarySearch! < 50,
      },
      {
        figure: 'query: page at offset 90,000 sorted by size',
        measured: ms(q.deepOffset),
        baseline: '-',
        ratio: '-',
        target: '< 50 ms',
        pass: q.deepOffset! < 50,
      },
    ];
    printReport(
      'bench:remote',
      `remote index benchmark (one run; ${FILES.toLocaleString('en')} files seeded in ${fmtS(seedMs)}; baselines measured in this run)`,
      rows,
    );
    return rows.every((r) => r.pass) ? 0 : 1;
  } finally {
    await stopChildren();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function child(mode: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const p = spawn(
    process.execPath,
    [
      ...cliEntryArgs('tools', join(import.meta.dirname, '..', '..', 'main.ts')),
      'remote-child',
      mode,
      JSON.stringify(args),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const out = await runToEnd(p, `bench remote-child ${mode}`);
  const line = out.trim().split('\n').at(-1) ?? '{}';
  return JSON.parse(line) as Record<string, unknown>;
}
