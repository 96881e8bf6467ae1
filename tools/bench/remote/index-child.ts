import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  APP_MIGRATIONS,
  closePools,
  createFileApiClient,
  createRemoteIndex,
  createRequestBudget,
} from '../../../src-main/core/internal';
import { openDatabase } from '../../../src-main/shared-node/sqlite';
import type { RemoteFile } from '../../../src-shared/api/file-hosting';
import { procStatusMb } from '../shared/proc-status';

/**
 * One measured step of `npm run bench:remote`, in its own process so that its memory is its own:
 * `bench remote-child <mode> <json>`; prints one JSON line of figures.
 *   cold     a new app database: time to the first 100 rows on screen, then the rest of the first fill
 *   warm     the filled database opened again: time to the first rows, query times, RSS
 *   refresh  the incremental refresh's requests
 *   walk     a full walk's requests and time
 *   memory   the old way: the whole listing in memory (requests, time, RSS, the same queries in JS)
 */
export async function run(argv: string[]): Promise<number> {
  const [mode, json] = argv;
  const o = JSON.parse(json ?? '{}') as { appDir: string; baseUrl: string; apiKey: string; clientId: number };
  const started = performance.now();
  let requests = 0;
  const client = createFileApiClient({
    baseUrl: o.baseUrl,
    apiKey: o.apiKey,
    budget: createRequestBudget({ perMinute: 0 }),
    timeoutMs: 60_000,
    onRequest: () => {
      requests++;
    },
  });
  const account = { service: o.baseUrl, clientId: o.clientId };
  const ms = (since: number) => performance.now() - since;
  const out: Record<string, unknown> = { mode };
  try {
    if (mode === 'memory') {
      const files: RemoteFile[] = [];
      for await (const f of client.listAllFiles()) files.push(f);
      out.listMs = ms(started);
      out.requests = requests;
      out.count = files.length;
      out.queries = timeQueries({
        search: () => files.filter((f) => f.name.toLowerCase().includes('seed-9999')).length,
        common: () => files.filter((f) => f.name.toLowerCase().includes('99')).slice(0, 100).length,
        byName: () =>
          files
            .filter((f) => f.bucket === 'b2')
            .sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1))
            .slice(0, 100).length,
        summary: () => files.reduce((n, f) => n + f.size_bytes, 0),
      });
      out.rssMb = procStatusMb(process.pid, 'VmRSS');
      out.keep = files.length; // held to here
      return print(out);
    }
    mkdirSync(o.appDir, { recursive: true });
    const db = openDatabase(join(o.appDir, 'app.sqlite'), APP_MIGRATIONS);
    const index = createRemoteIndex(db).forAccount(account);
    if (mode === 'cold') {
      let firstRowsMs: number | null = null;
      const r = await index.refresh(client, {
        onPage: () => {
          if (firstRowsMs !== null) return;
          const page = index.page({ limit: 100 });
          if (page.ok && page.value.files.length > 0) firstRowsMs = ms(started);
        },
      });
      if (!r.ok) throw new Error(r.error.message);
      Object.assign(out, {
        firstRowsMs,
        fillMs: ms(started),
        requests: r.value.requests,
        count: index.status().count,
      });
    } else if (mode === 'warm') {
      const page = index.page({ limit: 100 });
      out.firstRowsMs = ms(started);
      out.rows = page.ok ? page.value.files.length : 0;
      out.queries = timeQueries({
        search: () => unwrap(index.page({ search: 'seed-9999', limit: 100 })),
        common: () => unwrap(index.page({ search: '99', limit: 100 })),
        byName: () => unwrap(index.page({ bucket: 'b2', sort: 'name', limit: 100 })),
        summary: () => {
          const s = index.summary({});
          return s.ok ? s.value.count : 0;
        },
        summarySearch: () => {
          const s = index.summary({ search: '99', type: 'application' });
          return s.ok ? s.value.count : 0;
        },
        deepOffset: () => unwrap(index.page({ sort: 'size', offset: 90_000, limit: 100 })),
      });
      out.rssMb = procStatusMb(process.pid, 'VmRSS');
    } else if (mode === 'refresh') {
      const r = await index.refresh(client);
      if (!r.ok) throw new Error(r.error.message);
      Object.assign(out, { ms: ms(started), requests: r.value.requests, added: r.value.added });
    } else if (mode === 'walk') {
      const r = await index.walk(client);
      if (!r.ok) throw new Error(r.error.message);
      Object.assign(out, { ms: ms(started), requests: r.value.requests, pages: r.value.pages });
    } else throw new Error(`unknown mode ${mode}`);
    db.close();
    return print(out);
  } finally {
    await closePools();
  }
}

const unwrap = (r: { ok: boolean; value?: { files: unknown[] } }) =>
  r.ok ? (r.value?.files.length ?? 0) : -1;

/** Each query's best of 5 runs, in ms. */
function timeQueries(qs: Record<string, () => number>): Record<string, number> {
  const times: Record<string, number> = {};
  for (const [name, q] of Object.entries(qs)) {
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      q();
      best = Math.min(best, performance.now() - t);
    }
    times[name] = best;
  }
  return times;
}

function print(o: Record<string, unknown>): number {
  process.stdout.write(`${JSON.stringify(o)}\n`);
  return 0;
}
