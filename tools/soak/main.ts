import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import {
  closePools,
  createFileApiClient,
  createRequestBudget,
  DONE_STATES,
} from '../../src-main/core/internal';
import { procStatusMb } from '../bench/shared/proc-status';
import { REPO, startReadyChild, stopChildren } from '../bench/shared/processes';
import { printReport } from '../bench/shared/recorded';
import { fmtMb, type Row } from '../bench/shared/table';
import type { AppChildInput } from './app-child';
import { type AppProcess, accountEvents, startApp, unasked } from './app-process';
import { runModelCheck } from './model-check';
import { seededRandom } from './random';
import { compareWindows, type Sample } from './rss';
import { serviceAdmin } from './service-admin';
import { type SoakFolder, verifyFolders } from './verify';
import { createWorkload } from './workload';

const USAGE = `npm run soak [-- --minutes N] [--model-minutes M] [--seed S] [--keep]
  The app under churn, faults, money trouble and SIGKILLs for N minutes (default 30; 2 for a quick
  look), then every file checked against the service (docs/benchmarks.md). Not part of npm test.
  --minutes N  length of the churn (default 30)
  --model-minutes M  then the sync engine's model-based test for M minutes (default: a fifth of N, 1 at least)
  --seed S     replay the random choices of an earlier run (it prints its seed)
  --keep       keep the temp folder (folders, app and server data) for a look afterwards`;

/** The sandbox's demo client: the soak drains and tops up its wallet. */
const CLIENT_ID = 1;
/** A price at which a few MB stored cost rent every day, so an empty wallet falls into arrears. */
const PRICE_PER_GB_MONTH_PAISE = 2_000_000;
const FAULTS = { storage: 0.1, reset: 0.03 };
const TOP_UP_PAISE = 10_000_000;
const SETTLE_LIMIT_MS = 20 * 60_000;

/** `npm run soak`: the app under churn and faults; the end state is checked file by file. */
export async function run(argv: string[]): Promise<number> {
  let values: { minutes?: string; 'model-minutes'?: string; seed?: string; keep?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        minutes: { type: 'string' },
        'model-minutes': { type: 'string' },
        seed: { type: 'string' },
        keep: { type: 'boolean' },
        help: { type: 'boolean' },
      },
    }));
  } catch (e) {
    console.error(`soak: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const minutes = values.minutes === undefined ? 30 : Number(values.minutes);
  const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
  const modelMinutes =
    values['model-minutes'] === undefined ? Math.max(1, minutes / 5) : Number(values['model-minutes']);
  if (!(minutes > 0) || !(modelMinutes >= 0) || !Number.isInteger(seed)) {
    console.error(`soak: --minutes takes a positive number, --seed a whole number\n${USAGE}`);
    return 2;
  }
  const dir = mkdtempSync(join(tmpdir(), 'assets-soak-'));
  const onSignal = () => void stopChildren().finally(() => process.exit(130));
  process.once('SIGINT', onSignal);
  try {
    const rows = await soak(dir, minutes * 60_000, seed);
    if (modelMinutes > 0) rows.push(await modelRow(modelMinutes, seed));
    printReport('soak', `soak (${minutes} min, seed ${seed})`, rows);
    return rows.every((r) => r.pass) ? 0 : 1;
  } catch (e) {
    console.error(`soak: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return 1;
  } finally {
    await stopChildren();
    await closePools();
    process.off('SIGINT', onSignal);
    if (values.keep) console.error(`soak: kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

const log = (text: string) => process.stderr.write(`[soak] ${text}\n`);

/** The engine's model-based test for a longer budget (soak/model-check.ts); its seed is the soak's. */
async function modelRow(minutes: number, seed: number): Promise<Row> {
  log(`model-based test of the sync engine: ${minutes} min, seed ${seed}`);
  const r = await runModelCheck(Math.round(minutes * 60), seed);
  if (!r.ok) log(`model-based test failed: ${r.detail}`);
  return {
    figure: 'model-based test: random sequences, every invariant held',
    measured: `${r.sequences} sequences`,
    baseline: r.ok ? '-' : r.detail.slice(0, 200),
    ratio: '-',
    target: 'all hold',
    pass: r.ok && r.sequences > 0,
  };
}

async function soak(dir: string, runMs: number, seed: number): Promise<Row[]> {
  const random = seededRandom(seed);
  log(`seed ${seed}, ${runMs / 60_000} min, in ${dir}`);
  const server = await startReadyChild([
    process.execPath,
    join(REPO, 'bin', 'assets-sync.mjs'),
    'reference-server',
    '--port',
    '0',
    '--data-dir',
    join(dir, 'server'),
    '--price-per-gb-month-paise',
    String(PRICE_PER_GB_MONTH_PAISE),
  ]);
  const demo = server.ready.demo as { api_key: string; bot_id: number; bot_token: string };
  const admin = serviceAdmin(server.url, String(server.ready.admin_token));
  const folders: SoakFolder[] = [
    { path: join(dir, 'photos'), bucket: 'soak-photos', mode: 'mirror' },
    { path: join(dir, 'documents'), bucket: 'soak-documents', mode: 'upload-only' },
    { path: join(dir, 'site'), bucket: 'soak-site', mode: 'mirror' },
  ];
  for (const f of folders) mkdirSync(f.path);
  mkdirSync(join(dir, 'app'));
  const workload = createWorkload(
    folders.map((f) => f.path),
    random,
  );
  for (let i = 0; i < 90; i++) workload.step();

  const input = (mode: AppChildInput['mode']): AppChildInput => ({
    baseUrl: server.url,
    apiKey: demo.api_key,
    appDir: join(dir, 'app'),
    folders,
    kb: { token: demo.bot_token, remoteBotId: demo.bot_id },
    mode,
    kbEditMs: 3_000,
    seed: random.int(0, 2 ** 31),
  });

  const reader = createFileApiClient({
    baseUrl: server.url,
    apiKey: demo.api_key,
    budget: createRequestBudget({ perMinute: 0 }),
  });
  await admin.faults(FAULTS.storage, FAULTS.reset);
  const t0 = Date.now();
  const elapsed = () => Date.now() - t0;
  // The first failure of any loop ends them all, sleeping ones included, not only the run.
  let failed = false;
  const stop = new AbortController();
  const sleep = (ms: number) => delay(ms, undefined, { signal: stop.signal });
  const running = () => !failed && elapsed() < runMs;
  let app: AppProcess = await startApp(input('run'));
  let restarting: Promise<void> | null = null;
  let kills = 0;
  const appRss: Sample[] = [];
  const serverRss: Sample[] = [];
  const arrears: number[] = [];
  const topUps: number[] = [];

  // Each kind of trouble runs on its own clock until the end of the churn.
  const churn = (async () => {
    while (running()) {
      await sleep(800 + random.next() * 3_200);
      workload.step();
    }
  })();
  const killEveryMs = runMs <= 9 * 60_000 ? runMs / 3 : 3 * 60_000;
  const killer = (async () => {
    for (;;) {
      const next = elapsed() + killEveryMs * (0.6 + random.next() * 0.8);
      // A kill in the last 10 s would leave the end with nothing to show for it.
      if (failed || next >= runMs - 10_000) return;
      await sleep(next - elapsed());
      kills++;
      restarting = (async () => {
        await app.kill('SIGKILL');
        app = await startApp(input('run'));
      })();
      await restarting;
      restarting = null;
    }
  })();
  const gapMs = Math.min(3 * 60_000, runMs * 0.12);
  const money = (async () => {
    for (const at of [0.2, 0.55]) {
      await sleep(Math.max(0, runMs * at - elapsed()));
      // Empty the wallet, then a day of rent it cannot pay: arrears, uploads paused.
      await admin.wallet(CLIENT_ID, -1_000_000_000);
      await admin.advanceClock(86_400);
      const me = await reader.me();
      const owed = me.ok ? me.value.arrears.paise : 0;
      arrears.push(owed);
      log(`wallet drained: ${owed} paise in arrears${me.ok ? '' : ` (/me: ${me.error.code})`}`);
      await sleep(gapMs);
      const after = await admin.wallet(CLIENT_ID, TOP_UP_PAISE);
      topUps.push(after.arrears_paise === 0 && after.balance_paise > 0 ? 1 : 0);
      log(`topped up: balance ${after.balance_paise}, arrears ${after.arrears_paise}`);
    }
  })();
  const sampleMs = Math.min(60_000, runMs / 10);
  const sampler = (async () => {
    while (running()) {
      await sleep(sampleMs);
      if (!restarting) {
        const mb = procStatusMb(app.pid, 'VmRSS');
        if (Number.isFinite(mb)) appRss.push({ atMs: elapsed(), mb });
      }
      const smb = procStatusMb(server.child.pid!, 'VmRSS');
      if (Number.isFinite(smb)) serverRss.push({ atMs: elapsed(), mb: smb });
      const ops = Object.entries(workload.done)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ');
      log(
        `${(elapsed() / 60_000).toFixed(1)} min: ${ops}; kills ${kills}; app ${fmtMb(appRss.at(-1)?.mb ?? 0)}; paused ${accountEvents.paused}, resumed ${accountEvents.resumed}`,
      );
    }
  })();
  await Promise.all(
    [churn, killer, money, sampler].map((loop) =>
      loop.catch((e: unknown) => {
        failed = true;
        stop.abort();
        throw e;
      }),
    ),
  );

  // The end: faults off, the wallet fine, the app stopped; then a last run that settles and reports.
  await admin.faults(0, 0);
  const settleStart = Date.now();
  await app.kill('SIGTERM');
  const last = await startApp(input('settle'));
  let limit: NodeJS.Timeout | undefined;
  const report = await Promise.race([
    last.settled,
    new Promise<null>((r) => {
      limit = setTimeout(() => r(null), SETTLE_LIMIT_MS);
    }),
  ]);
  clearTimeout(limit);
  const settleMs = Date.now() - settleStart;
  if (!report) throw new Error(`the last run did not settle within ${SETTLE_LIMIT_MS / 60_000} min`);
  await last.exited;
  log(`settled in ${(settleMs / 1000).toFixed(1)} s: ${JSON.stringify(report.counts)}`);

  const v = await verifyFolders(reader, folders, report);
  for (const p of [
    ...v.problems,
    ...report.stuck.map((s) => `stuck: ${s.folder}/${s.name} ${s.state} ${s.reasonCode ?? ''}`),
    ...report.kb.mismatched,
  ])
    log(`problem: ${p}`);
  await server.stop();

  const ops = Object.values(workload.done).reduce((a, b) => a + b, 0);
  log(
    `${ops} operations (${Object.entries(workload.done)
      .map(([k, n]) => `${k} ${n}`)
      .join(
        ', ',
      )}), ${kills} SIGKILLs, faults ${FAULTS.storage * 100}% 502 and ${FAULTS.reset * 100}% resets`,
  );
  const rss = compareWindows(appRss, runMs);
  // Shown, not checked: the sandbox keeps its upload buffers per concurrent upload (a pool that grows
  // to the most uploads it has seen at once) and its SQLite cache grows with the files it holds.
  const serverWindows = compareWindows(serverRss, runMs);
  if (serverWindows)
    log(
      `reference server RSS: max ${fmtMb(serverWindows.lastMb)} in the last ${serverWindows.window}, ${fmtMb(serverWindows.firstMb)} in the first (${serverWindows.ratio.toFixed(2)}x)`,
    );
  const notFinal = Object.entries(report.counts)
    .filter(([state, n]) => n > 0 && !(DONE_STATES as readonly string[]).includes(state))
    .reduce((a, [, n]) => a + n, 0);
  const counts = Object.entries(report.counts)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${s} ${n}`)
    .join(', ');
  const expected = v.localFiles - v.skippedOnPurpose;
  const rows: Row[] = [
    {
      figure: 'local files live exactly once, with their md5',
      measured: `${v.liveOnce} of ${expected}`,
      baseline: `${v.localFiles} local files`,
      ratio: expected ? (v.liveOnce / expected).toFixed(3) : '-',
      target: 'all',
      pass: expected > 0 && v.liveOnce === expected,
    },
    {
      figure: 'local files skipped by the upload rules, online',
      measured: `${v.skippedButOnline} of ${v.skippedOnPurpose}`,
      baseline: '-',
      ratio: '-',
      target: '0',
      pass: v.skippedButOnline === 0,
    },
    {
      figure: 'mirror buckets: live copies not on disk',
      measured: String(v.extraInMirror),
      baseline: '-',
      ratio: '-',
      target: '0',
      pass: v.extraInMirror === 0,
    },
    {
      figure: 'rows outside LIVE/SKIPPED/DELETED after settling',
      measured: String(notFinal),
      baseline: counts,
      ratio: '-',
      target: '0',
      pass: notFinal === 0 && report.allDone,
    },
    {
      figure: 'LIVE rows whose remote is not online',
      measured: String(v.rowsPointingNowhere),
      baseline: `${report.live.length} LIVE rows`,
      ratio: '-',
      target: '0',
      pass: v.rowsPointingNowhere === 0,
    },
    {
      figure: 'KB entries: local = server, outbox empty',
      measured: `${report.kb.mismatched.length} differ (${report.kb.entries} local), outbox ${report.kb.outbox}`,
      baseline: '-',
      ratio: '-',
      target: '0, 0',
      pass: report.kb.mismatched.length === 0 && report.kb.outbox === 0 && report.kb.notSynced === 0,
    },
    {
      figure: `app RSS: max of the last ${rss?.window ?? 'window'}`,
      measured: rss ? fmtMb(rss.lastMb) : 'no samples',
      baseline: rss ? `first: ${fmtMb(rss.firstMb)}` : '-',
      ratio: rss ? `${rss.ratio.toFixed(2)}x` : '-',
      target: '<= 1.10x',
      pass: rss !== null && rss.ratio <= 1.1,
    },
    {
      figure: 'wallet drained into arrears, then topped up',
      measured: `${arrears.filter((a) => a > 0).length} of 2 (${arrears.join(', ')} paise owed); ${topUps.filter(Boolean).length} cleared`,
      baseline: '-',
      ratio: '-',
      target: '2, 2',
      pass: arrears.length === 2 && arrears.every((a) => a > 0) && topUps.every(Boolean),
    },
    {
      figure: 'app processes that ended unasked (crashes)',
      measured: String(unasked.length),
      baseline: unasked.map((u) => `exit ${u.code ?? u.signal}`).join(', ') || '-',
      ratio: '-',
      target: '0',
      pass: unasked.length === 0,
    },
    {
      figure: 'app SIGKILLed and restarted',
      measured: `${kills} times`,
      baseline: `every ~${Math.round(killEveryMs / 1000)} s`,
      ratio: '-',
      target: '>= 1',
      pass: kills >= 1,
    },
    {
      figure: 'uploads paused by the account / resumed',
      measured: `${accountEvents.paused} / ${accountEvents.resumed}`,
      baseline: '-',
      ratio: '-',
      target: '>= 1 pause',
      pass: accountEvents.paused >= 1,
    },
    {
      figure: 'time to settle once the faults stop',
      measured: `${(settleMs / 1000).toFixed(1)} s`,
      baseline: '-',
      ratio: '-',
      target: `< ${SETTLE_LIMIT_MS / 60_000} min`,
      pass: settleMs < SETTLE_LIMIT_MS,
    },
  ];
  return rows;
}
