/**
 * Every view of the app in three looks, as PNGs for a person to look at (issue 23), not a test: `npm run
 * screens` (or `npx tsx test/e2e/screens-tour.ts [outDir]`, default /tmp/screens). It starts the real
 * core on the embedded sandbox behind the headless shell, gives it something to show (two folders with
 * files, one refused, leads of both kinds, knowledge entries, an activity log), and visits each view of
 * `src-renderer/views/registry.ts` plus the first run and the open states of the three big lists (a
 * file's preview, a lead's details, an entry in the editor). The views are the sidebar's, which lists
 * registry.ts's for the session.
 *
 * Looks: `800x600` (light), `dark` (800x600, the system asking for dark) and `zoom200` (what Chromium's
 * 200% zoom makes of a 1280x820 window: 640x410 CSS pixels at device scale 2, as the axe audits in
 * screens.ts take it). A view whose content scrolls is taken once per screenful (`-p2`, `-p3`...), so
 * nothing below the fold goes unseen. What each picture's page measured (sideways scrolling, a box
 * spilling out of its card) is printed beside its name.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { createAppService } from '../../src-main/core/app/app-service';
import { startHeadlessShell } from '../../src-main/headless/server';
import { buildRenderer } from '../../src-main/shared-node/renderer-build';
import { memorySecrets } from '../support/secrets';
import { untilEvent } from '../support/wait';
import { launchChromium } from './stack';

const OUT = process.argv[2] ?? '/tmp/screens';
const LOOKS: Record<string, BrowserContextOptions> = {
  '800x600': { viewport: { width: 800, height: 600 }, colorScheme: 'light' },
  dark: { viewport: { width: 800, height: 600 }, colorScheme: 'dark' },
  zoom200: { viewport: { width: 640, height: 410 }, deviceScaleFactor: 2, colorScheme: 'light' },
};
/** At most this many screenfuls of one view. */
const MAX_PAGES = 10;

async function main() {
  mkdirSync(OUT, { recursive: true });
  const root = mkdtempSync(join(tmpdir(), 'assets-screens-'));
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
  const must = async <T>(
    what: string,
    p: Promise<{ ok: true; value: T } | { ok: false; error: unknown }>,
  ) => {
    const r = await p;
    if (!r.ok) throw new Error(`${what}: ${JSON.stringify(r.error)}`);
    return r.value;
  };
  try {
    const pages: Record<string, Page> = {};
    for (const [look, options] of Object.entries(LOOKS)) {
      pages[look] = await (await browser.newContext(options)).newPage();
      pages[look]!.on('pageerror', (e) => console.error(`${look}: page error: ${e.message}`));
      await pages[look]!.goto(shell.url);
      await pages[look]!.getByRole('button', { name: 'Try the local sandbox' }).waitFor();
    }
    await shootAll(pages, 'first-run');

    await must('sandbox', app.call('session.useSandbox', {}));
    await seed(root, app, must);
    for (const page of Object.values(pages)) {
      await page.reload();
      await page.getByRole('heading', { name: 'Folders', exact: true, level: 1 }).waitFor();
    }

    // The sidebar's sections are registry.ts's views for this session (importing the registry here
    // would import the views' CSS into Node).
    const labels = (
      await pages['800x600']!.getByRole('navigation').getByRole('button').allTextContents()
    ).map((t) => t.replace(/\d+$/, '').trim());
    for (const label of labels) {
      const id = label.toLowerCase();
      for (const page of Object.values(pages)) {
        await nav(page, label);
        await page.getByRole('heading', { name: label, exact: true, level: 1 }).waitFor();
        await ready(page, id);
      }
      await shootAll(pages, id);
      const open = OPEN_STATES[id];
      if (open) {
        for (const page of Object.values(pages)) await open.enter(page);
        await shootAll(pages, `${id}-${open.name}`);
        // A dialog (the lead's details) closes before the sidebar is used again.
        for (const page of Object.values(pages)) await page.keyboard.press('Escape');
      }
    }
  } finally {
    await browser.close();
    await shell.close();
    await app.close();
    rmSync(root, { recursive: true, force: true });
  }
  console.log(`pictures in ${OUT}`);
}

type Must = <T>(
  what: string,
  p: Promise<{ ok: true; value: T } | { ok: false; error: unknown }>,
) => Promise<T>;

/** Two folders with files (long names, a nested one, one the service refuses), leads, entries. */
async function seed(root: string, app: Awaited<ReturnType<typeof createAppService>>, must: Must) {
  const site = join(root, 'site');
  mkdirSync(join(site, 'images', 'products'), { recursive: true });
  const names = [
    'index.html',
    'styles.css',
    'app.js',
    'logo.svg',
    'price-list-2026.pdf',
    'images/hero.png',
    'images/products/ceramic-mug-handmade-blue-glaze-large-350ml-front-view.jpg',
    'images/products/tote.jpg',
    'setup.exe',
  ];
  for (const n of names)
    writeFileSync(
      join(site, n),
      /\.(png|jpg)$/.test(n) ? png(n.length * 7) : `${n} ${'x'.repeat(n.length * 37)}\n`,
    );
  const docs = join(root, 'documents-shared-with-the-accounts-team');
  mkdirSync(docs);
  for (let i = 1; i <= 6; i++)
    writeFileSync(join(docs, `invoice-2026-${String(i).padStart(3, '0')}.txt`), `${i}\n`);
  await must('add site', app.call('sync.folders.add', { path: site, bucket: 'site' }));
  await must('add docs', app.call('sync.folders.add', { path: docs, bucket: 'accounts-invoices' }));
  // Both folders in sync: every file live or refused, nothing left to send.
  await untilEvent(app, 'both folders in sync', async () => {
    const o = await must('overview', app.call('sync.overview', {}));
    return o.folders.length === 2 && o.folders.every((f) => f.counts.pending === 0 && f.counts.live > 0);
  });
  // A few days measured for the Usage chart.
  await must('days', app.call('sandbox.advanceClock', { days: 5 }));
  await must('lead', app.call('sandbox.raiseLead', { event: 'LEAD-CAPTURED' }));
  await must('handoff', app.call('sandbox.raiseLead', { event: 'HANDOFF-REQUESTED' }));
  // The sandbox's demo bot is set up by itself.
  let botId = 0;
  await untilEvent(app, 'the demo bot', async () => {
    botId = (await must('bots', app.call('kb.bots', {}))).bots[0]?.id ?? 0;
    return botId > 0;
  });
  const entries: [string, string][] = [
    ['Opening hours', 'Monday to Saturday, 9 to 6. Closed on public holidays.'],
    ['Returns', 'Within 30 days, with the receipt, in the original packaging.'],
    [
      'Shipping to other countries and what it costs for parcels over two kilograms',
      'We ship to most countries by registered post; the price depends on the weight and is shown at checkout.',
    ],
  ];
  for (const [title, description] of entries)
    await must('entry', app.call('kb.create', { botId, title, description }));
}

/** A real picture for the preview: a 96x64 PNG of one colour (the hue from `seed`). */
function png(seed: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body) >>> 0, body.length + 4);
    return out;
  };
  const [w, h] = [96, 64];
  const header = Buffer.alloc(13);
  header.writeUInt32BE(w, 0);
  header.writeUInt32BE(h, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.alloc(1 + w * 3);
  for (let x = 0; x < w; x++) row.set([(seed * 53) % 256, 140, (seed * 97) % 256], 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: h }, () => row));
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const nav = (page: Page, label: string) =>
  page.getByRole('navigation').getByRole('button', { name: label, exact: true }).click();

/** What says a view has its data on screen (not its "Loading…"). */
async function ready(page: Page, view: string) {
  if (view === 'files') await page.getByTestId('file-row').first().waitFor();
  if (view === 'leads') await page.locator('tbody tr').first().waitFor();
  if (view === 'knowledge') await page.locator('[data-entry-title]').first().waitFor();
  if (view === 'folders') await page.getByTestId('folder-card').first().waitFor();
  await page.evaluate(() => document.fonts.ready);
}

/** The open state of each big list, taken after the view itself. */
const OPEN_STATES: Record<string, { name: string; enter(page: Page): Promise<void> }> = {
  files: {
    name: 'preview',
    async enter(page) {
      await page.getByTestId('file-row').filter({ hasText: 'ceramic-mug' }).locator('.c-name').click();
      await page.locator('.files-layout > :nth-child(2)').waitFor();
    },
  },
  leads: {
    name: 'detail',
    async enter(page) {
      await page.locator('.lead-open').first().click();
      await page.getByRole('dialog').waitFor();
    },
  },
  knowledge: {
    name: 'entry',
    async enter(page) {
      await page.locator('[data-entry-title]').last().click();
      await page.getByLabel('Title').waitFor();
    },
  },
};

/** Sideways scrolling of the document and main column, and boxes spilling out of a card (screens.ts). */
function measure(page: Page) {
  return page.evaluate(() => {
    const doc = document.documentElement;
    const main = document.querySelector('main');
    const wide: string[] = [];
    for (const el of document.querySelectorAll('main *')) {
      const s = getComputedStyle(el);
      if ((s.overflowX === 'auto' || s.overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1)
        wide.push(
          `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} scrolls +${el.scrollWidth - el.clientWidth}px`,
        );
    }
    const side = document.querySelector('.sidebar');
    return [
      doc.scrollWidth > doc.clientWidth
        ? `page scrolls sideways +${doc.scrollWidth - doc.clientWidth}px`
        : '',
      main && main.scrollWidth > main.clientWidth
        ? `main scrolls sideways +${main.scrollWidth - main.clientWidth}px`
        : '',
      side && side.scrollHeight > side.clientHeight + 1
        ? `sidebar scrolls +${side.scrollHeight - side.clientHeight}px`
        : '',
      ...wide,
    ].filter(Boolean);
  });
}

/** Each look's picture of the page as it is, one per screenful of its scrolling content. */
async function shootAll(pages: Record<string, Page>, name: string) {
  for (const [look, page] of Object.entries(pages)) {
    const notes = await measure(page);
    // What scrolls: the view's region, or (narrow, the window scrolling as one) the document.
    const scroller = page.locator('.content[role="region"]');
    const inRegion =
      (await scroller.count()) === 1 &&
      (await scroller.evaluate((el) => el.scrollHeight > el.clientHeight + 1));
    const scroll = (top: number) =>
      inRegion
        ? scroller.evaluate((el, t) => el.scrollTo(0, t), top)
        : page.evaluate((t) => document.scrollingElement!.scrollTo(0, t), top);
    const [height = 0, client = 1] = inRegion
      ? await scroller.evaluate((el) => [el.scrollHeight, el.clientHeight])
      : await page.evaluate(() => [document.scrollingElement!.scrollHeight, innerHeight]);
    const steps = Math.ceil(height / Math.max(1, client));
    for (let p = 1; p <= Math.min(steps, MAX_PAGES); p++) {
      await scroll((p - 1) * client);
      const file = join(OUT, `${name}-${look}${p > 1 ? `-p${p}` : ''}.png`);
      await page.screenshot({ path: file, scale: 'device' });
      console.log(
        `${file}${p === 1 && notes.length ? `  ${notes.join('; ')}` : ''}${p === 1 && steps > MAX_PAGES ? `  (${steps} screenfuls)` : ''}`,
      );
    }
    await scroll(0);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
