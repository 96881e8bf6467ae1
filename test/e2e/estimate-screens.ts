/**
 * The estimate's benchmark through the app (issue 31, "the screenshots of the header during each show a
 * figure within the target"): `npm run bench:estimate -- --screens` (or `npx tsx
 * test/e2e/estimate-screens.ts [outDir]`, default /tmp/estimate-screens). Not a test: it prints.
 *
 * The same four cases as tools/bench/estimate.ts (190 MiB; 17 small files; 300 small files at the request
 * limit; 8 MiB under a 1 MiB/s limit), each a folder added to the real core on the embedded sandbox behind
 * the headless shell, with the Folders view open in Chromium. At the first event past 10%, 50% and 90% of
 * the work (bytes sent for the large files, files live for the small ones, as the app's own events say) it
 * reads the figure the Folders header shows ("12 s left (bound by bandwidth)"), takes a picture of the
 * header, and once the folder is in sync compares the figure with the time that was really left (the
 * error relative to the time left, with a floor of 1 s, as the engine's benchmark). The load is printed
 * beside each row: the machine is shared.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { createAppService } from '../../src-main/core/app/app-service';
import { startHeadlessShell } from '../../src-main/headless/server';
import { buildRenderer } from '../../src-main/shared-node/renderer-build';
import type { AnyEvent } from '../../src-shared/contract';
import { writeRandomFile, writeSmallFiles } from '../../tools/bench/shared/fixtures';
import { memorySecrets } from '../support/secrets';
import { launchChromium } from './stack';

const OUT = process.argv[2] ?? '/tmp/estimate-screens';
const MiB = 1024 * 1024;
const POINTS = [0.1, 0.5, 0.9] as const;

interface Case {
  slug: string;
  name: string;
  measure: 'bytes' | 'files';
  files: number;
  make(dir: string): void;
  bwlimit?: string;
}

const CASES: Case[] = [
  {
    slug: '190mib',
    name: '190 MiB, one file',
    measure: 'bytes',
    files: 1,
    make: (d) => writeRandomFile(join(d, 'video.mp4'), 190 * MiB),
  },
  {
    slug: '17-small',
    name: '17 small files',
    measure: 'files',
    files: 17,
    make: (d) => writeSmallFiles(d, 17, 20_000),
  },
  {
    slug: '8mib-1m',
    name: '8 MiB under a 1 MiB/s limit',
    measure: 'bytes',
    files: 1,
    make: (d) => writeRandomFile(join(d, 'clip.mp4'), 8 * MiB),
    bwlimit: '1M',
  },
  {
    slug: '300-small',
    name: '300 small files at the request limit (the app keeps to 115 a minute)',
    measure: 'files',
    files: 300,
    make: (d) => writeSmallFiles(d, 300, 2_000),
  },
];

/** The header's words back to seconds: "under a second", "12 s", "3 min 4 s", "2 h 5 min", "3 days". */
export function secondsOf(text: string): number | null {
  const m = /^(.*) left/.exec(text.trim());
  if (!m) return null;
  const t = m[1]!;
  if (t === 'under a second') return 0.5;
  let s = 0;
  let any = false;
  for (const [, n, unit] of t.matchAll(/(\d+)\s*(days|h|min|s)\b/g)) {
    any = true;
    s += Number(n) * (unit === 'days' ? 86_400 : unit === 'h' ? 3_600 : unit === 'min' ? 60 : 1);
  }
  return any ? s : null;
}

interface Reading {
  f: number;
  at: number;
  text: string | null;
  shown: number | null;
  picture: string;
  /** What the core's last overview said then (the header's source): seconds. */
  core: number | null;
  /** The figure the picture shows (read right after it), and when. */
  pictured: string | null;
  pictureAt: number;
  /** The header said the same before and after the picture (else the picture may show the one before). */
  exact: boolean;
}

async function must<T>(what: string, p: Promise<{ ok: true; value: T } | { ok: false; error: unknown }>) {
  const r = await p;
  if (!r.ok) throw new Error(`${what}: ${JSON.stringify(r.error)}`);
  return r.value;
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  const root = mkdtempSync(join(tmpdir(), 'estimate-screens-'));
  const rendererDir = join(root, 'renderer');
  await buildRenderer(rendererDir);
  const app = await createAppService({
    dataDir: join(root, 'data'),
    secrets: memorySecrets(),
    env: {},
    engine: { stabilityMs: 150, pausePollMs: 400 },
    log: () => {},
  });
  const shell = await startHeadlessShell({ core: app, rendererDir, dropDir: join(root, 'incoming') });
  const browser = await launchChromium();
  const rows: string[] = [];
  try {
    await must('sandbox', app.call('session.useSandbox', {}));
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
    await page.goto(shell.url);
    await page.getByRole('heading', { name: 'Folders', exact: true, level: 1 }).waitFor();
    console.log(
      `load before: ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );
    console.log('case | took | at 10%: header says / really left (error) | at 50% | at 90%');
    for (const c of CASES) {
      const row = await runCase(app, page, root, c);
      rows.push(row);
      console.log(row);
    }
  } finally {
    await browser.close();
    await shell.close();
    await app.close();
    rmSync(root, { recursive: true, force: true });
  }
  console.log(`pictures in ${OUT}`);
}

async function runCase(
  app: Awaited<ReturnType<typeof createAppService>>,
  page: Page,
  root: string,
  c: Case,
): Promise<string> {
  const dir = join(root, c.slug);
  mkdirSync(dir);
  c.make(dir);
  await must('bwlimit', app.call('settings.update', { bwlimit: c.bwlimit ?? 'off' }));
  const header = page.locator('header.header');
  const readings: Reading[] = [];
  let next = 0;
  let end: number | null = null;
  let onEnd: () => void = () => {};
  const ended = new Promise<void>((resolve) => {
    onEnd = resolve;
  });
  const read = () =>
    page.evaluate(() => document.querySelector('[data-testid="eta-bound"]')?.textContent ?? null);
  let pictures: Promise<void> = Promise.resolve();
  /**
   * At each point passed: the header's figure as it reads at once (a read of the page's text takes
   * milliseconds), then its picture, taken in turn (a picture takes up to a second on the shared machine,
   * more than a tenth of a 4 s upload), with the figure it shows read again after it.
   */
  const passed = (done: number) => {
    while (next < POINTS.length && done >= POINTS[next]!) {
      const f = POINTS[next++]!;
      const core = lastEta;
      const at = performance.now();
      const picture = join(OUT, `estimate-${c.slug}-${Math.round(f * 100)}.png`);
      const text = read();
      pictures = pictures.then(async () => {
        const shown = await text;
        // The figure in the picture is the one read both before and after it: taken again (twice at
        // most) when the header changed meanwhile.
        let pictured: string | null = null;
        let pictureAt = 0;
        let exact = false;
        for (let i = 0; i < 3 && !exact; i++) {
          const before = await read();
          pictureAt = performance.now();
          await header.screenshot({ path: picture, timeout: 10_000 }).catch(() => undefined);
          pictured = await read();
          exact = pictured === before;
        }
        readings.push({
          f,
          at,
          text: shown,
          shown: shown ? secondsOf(shown) : null,
          picture,
          core,
          pictured,
          pictureAt,
          exact,
        });
      });
    }
  };
  let folderId: number | null = null;
  let lastEta: number | null = null;
  const unsubscribe = app.subscribe((e: AnyEvent) => {
    if (end !== null) return;
    if (e.event === 'sync.queue' && c.measure === 'bytes') {
      const a = e.payload.active.find((q) => q.folderId === folderId && q.state === 'UPLOADING');
      if (a && a.sizeBytes > 0) {
        passed(a.sentBytes / a.sizeBytes);
      }
    }
    if (e.event === 'sync.changed') {
      lastEta = e.payload.etaSeconds ?? null;
      const f = e.payload.folders.find((x) => x.id === folderId);
      if (!f) return;
      if (c.measure === 'files') passed(f.counts.live / c.files);
      if (f.counts.live === c.files && f.counts.pending === 0) {
        end = performance.now();
        onEnd();
      }
    }
  });
  const t0 = performance.now();
  const added = await must('add', app.call('sync.folders.add', { path: dir, bucket: c.slug }));
  folderId = added.id;
  await ended;
  unsubscribe();
  await pictures;
  const took = ((end ?? performance.now()) - t0) / 1000;
  const cells = POINTS.map((f) => {
    const r = readings.find((x) => x.f === f);
    if (!r) return 'not reached by an event';
    const say = (text: string | null, at: number) => {
      const real = ((end ?? at) - at) / 1000;
      const shown = text ? secondsOf(text) : null;
      if (shown === null) return `no figure / ${real.toFixed(1)} s`;
      const error = (shown - real) / Math.max(real, 1);
      return `"${text?.replace(/ left.*/, '')}" / ${real.toFixed(1)} s (${error >= 0 ? '+' : ''}${(error * 100).toFixed(0)}%)`;
    };
    const core = r.core === null ? '' : ` [core ${r.core} s]`;
    return `${say(r.text, r.at)}${core}; picture ${r.exact ? '' : '(changing) '}${say(r.pictured, r.pictureAt)}`;
  });
  return `${c.name} | ${took.toFixed(1)} s | ${cells.join(' | ')}  (load ${loadavg()[0]!.toFixed(2)})`;
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
    process.exit(1);
  },
);
