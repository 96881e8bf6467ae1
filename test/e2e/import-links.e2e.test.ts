import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { untilEvent } from '../support/wait';
import { lineCount, scrollBoxesIn } from './layout';
import { screens, ZOOMABLE } from './screens';
import { launchChromium, type Stack, startStack } from './stack';

interface Row {
  name: string;
  state: string;
  remote_id: number | null;
  remote_url: string | null;
  old_remote_id: number | null;
}

/**
 * The Import dialog and knowledge-entry link integrity in Chromium, against a real core and the
 * sandbox reference server: lines checked before a request, results downloadable, a second run
 * skipping what succeeded; an entry citing a synced file flagged once the file changes locally
 * (new version up, old one deleted by the engine) and fixed in one action.
 */
describe.sequential('import from URLs and entry links in Chromium', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let sources: Server;
  let src: string;
  let botId = 0;
  const folder = () => join(stack.root, 'docs');
  const nav = (label: string) =>
    page.getByRole('navigation').getByRole('button', { name: label, exact: true }).click();
  const rows = () =>
    stack.app.context.db
      .prepare('SELECT name, state, remote_id, remote_url, old_remote_id FROM sync_files ORDER BY name')
      .all() as Row[];
  const row = (name: string) => rows().find((r) => r.name === name);

  beforeAll(async () => {
    stack = await startStack();
    sources = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/price-list.pdf') res.writeHead(200, { 'content-length': 4 }).end('list');
      else res.writeHead(404).end('no');
    });
    await new Promise<void>((r) => sources.listen(0, '127.0.0.1', r));
    src = `http://127.0.0.1:${(sources.address() as AddressInfo).port}`;
    browser = await launchChromium();
    page = await browser.newPage({ ...ZOOMABLE, acceptDownloads: true });
    await page.goto(stack.shell.url);
    await page.getByRole('button', { name: 'Try the local sandbox' }).click();
    await page.getByRole('heading', { name: 'Folders', exact: true }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => sources?.close(r));
    await stack?.close();
  });

  it('checks every line before a request, imports the good ones, offers the results, and skips them on a second run', async () => {
    await nav('Files');
    await page.getByRole('button', { name: 'Import list' }).click();
    const dialog = page.getByRole('region', { name: 'Import from URLs' });
    await dialog.getByLabel('List name').fill('moving off saveToLocal');
    await dialog
      .getByLabel('Or paste the lines', { exact: true })
      .fill(
        [
          'source_url,bucket,md5',
          `${src}/price-list.pdf,brochures`,
          'not a url',
          `${src}/setup.exe`,
          `${src}/logo.png,Bad Bucket!`,
          `${src}/missing.pdf`,
        ].join('\n'),
      );
    const checked = dialog.getByRole('table', { name: 'Checked lines' });
    await checked.locator('[data-line="6"]').waitFor();
    await dialog
      .getByRole('status')
      .filter({ hasText: /5 lines: 2 ready, 3 with a problem/ })
      .waitFor();
    // Each problem in words; its code is the badge's tooltip (no raw code in front of people).
    const problem = async (line: number) => {
      const tr = checked.locator(`[data-line="${line}"]`);
      return [await tr.locator('[data-code]').getAttribute('data-code'), await tr.innerText()];
    };
    expect(await problem(3)).toEqual(['URL-INVALID', expect.stringContaining('is not a full URL')]);
    expect(await problem(4)).toEqual(['EXTENSION-NOT-ALLOWED', expect.stringContaining('".exe" is not')]);
    expect(await problem(5)).toEqual(['BUCKET-INVALID', expect.stringContaining('is not a bucket name')]);
    expect(await checked.innerText()).not.toMatch(/[A-Z]+-[A-Z]+/);
    // Laid out to be read: the source URL has two fifths of the table or more and a short URL stays
    // on one line (it wrapped mid-token in a column a sixth wide); the view alone scrolls.
    const widths = await checked.locator('thead th').evaluateAll((ths) => ths.map((t) => t.clientWidth));
    expect(widths[1]! / widths.reduce((a, b) => a + b)).toBeGreaterThan(0.4);
    expect(await lineCount(checked.locator('[data-line="2"] td').nth(1))).toBe(1);
    expect(await scrollBoxesIn(dialog)).toEqual([]);
    await screens(page, 'import-checked', dialog);

    await dialog.getByRole('button', { name: 'Import 2 lines' }).click();
    const results = dialog.getByRole('table', { name: 'Import results' });
    await results.waitFor();
    expect(await dialog.getByRole('status').first().innerText()).toMatch(/^1 file uploaded, 4 failed/);
    // A toast says what happened, in Activity's words (issue 34: the only one was "Folder in sync").
    await page
      .locator('.toast', {
        hasText: 'Imported from a list of links (moving off saveToLocal): 1 of 5 lines uploaded, 4 failed.',
      })
      .waitFor();
    const ok = await results.locator('[data-line="2"]').innerText();
    expect(ok).toContain('Uploaded');
    expect(ok).toMatch(/#\d+ http:\/\/.*\/storage\/\d+\/brochures\/.*price-list\.pdf/);
    expect(await results.locator('[data-line="6"] [data-code]').getAttribute('data-code')).toBe(
      'SOURCE-UNREACHABLE',
    );
    await screens(page, 'import-results', dialog);

    const [file] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Download results' }).click(),
    ]);
    expect(file.suggestedFilename()).toBe('moving_off_saveToLocal.results.csv');
    const csv = readFileSync((await file.path())!, 'utf8').split('\r\n');
    expect(csv[0]).toBe('line,source_url,bucket,md5,status,id,url,code,message');
    expect(csv.filter((l) => l !== '')).toHaveLength(6);

    // The same list again: the uploaded line is not sent twice.
    await dialog.getByRole('button', { name: 'Run again' }).click();
    await dialog
      .getByRole('status')
      .filter({ hasText: /0 files uploaded, 1 already done by an earlier run, 4 failed/ })
      .waitFor();
  });

  it('tells which old cdn_ids are live (with their URL) and which are gone', async () => {
    const dialog = page.getByRole('region', { name: 'Import from URLs' });
    await dialog.getByRole('button', { name: 'Old file ids' }).click();
    const live = (await stack.fileApi('GET', '/files?page=1')).json as {
      data: { id: number; url: string }[];
    };
    const id = live.data[0]!.id;
    await dialog.getByLabel('Or paste the ids', { exact: true }).fill(`cdn_id\n${id}\n999999\nabc`);
    await dialog.getByRole('button', { name: 'Check ids' }).click();
    const table = dialog.getByRole('table', { name: 'Id check results' });
    await table.waitFor();
    expect(await table.locator('[data-line="2"]').innerText()).toContain(live.data[0]!.url);
    expect(await table.locator('[data-line="3"]').innerText()).toContain('Gone');
    expect(await table.locator('[data-line="4"] [data-code]').getAttribute('data-code')).toBe('VALIDATION');
    await dialog
      .getByRole('status')
      .filter({ hasText: /1 live, 1 gone, 1 not checked/ })
      .waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  it('names the entries a delete of two cited files would break, before it is sent', async () => {
    mkdirSync(folder());
    writeFileSync(join(folder(), 'prices.pdf'), 'price list, first version');
    writeFileSync(join(folder(), 'brochure.pdf'), 'the brochure');
    const added = await stack.app.call('sync.folders.add', {
      path: folder(),
      bucket: 'docs',
      mode: 'mirror',
    });
    expect(added.ok).toBe(true);
    await untilEvent(
      stack.app,
      'both files live',
      () => rows().filter((r) => r.state === 'LIVE').length === 2,
    );
    const bots = await stack.app.call('kb.bots', {});
    if (!bots.ok) throw new Error(bots.error.message);
    botId = bots.value.bots[0]!.id;
    for (const [title, file] of [
      ['Prices', 'prices.pdf'],
      ['Brochure', 'brochure.pdf'],
    ] as const) {
      const r = await stack.app.call('kb.create', {
        botId,
        title,
        description: `Download it here: ${row(file)!.remote_url}. Ask us for anything else.`,
      });
      expect(r.ok).toBe(true);
    }
    // The same command the Files view's delete confirmation asks.
    const before = await stack.app.call('files.linksBrokenBy', {
      ids: [row('prices.pdf')!.remote_id!, row('brochure.pdf')!.remote_id!],
    });
    if (!before.ok) throw new Error(before.error.message);
    expect(before.value.entries.map((e) => e.title).sort()).toEqual(['Brochure', 'Prices']);
    const cited = Object.fromEntries(before.value.entries.map((e) => [e.title, e.urls]));
    expect(cited).toEqual({
      Prices: [row('prices.pdf')!.remote_url],
      Brochure: [row('brochure.pdf')!.remote_url],
    });
  });

  it('flags an entry whose file changed locally and fixes it in one action', async () => {
    const old = row('prices.pdf')!;
    writeFileSync(join(folder(), 'prices.pdf'), 'price list, second version');
    await untilEvent(stack.app, 'the new version live and the old one deleted', () => {
      const r = row('prices.pdf')!;
      const trashed = stack.app.context.db
        .prepare('SELECT 1 FROM sync_trash WHERE remote_id = ?')
        .get(old.remote_id);
      return r.state === 'LIVE' && r.remote_id !== old.remote_id && trashed === undefined;
    });
    expect((await stack.fileApi('GET', `/files/${old.remote_id}`)).status).toBe(410);
    const current = row('prices.pdf')!.remote_url!;

    await nav('Knowledge');
    const entry = page.locator('[data-entry-title="Prices"]');
    await entry.getByText('Old link').waitFor();
    // The brochure did not change: no mark.
    expect(await page.locator('[data-entry-title="Brochure"]').getByText(/link/).count()).toBe(0);
    await entry.click();
    const notice = page.locator('.kb-link-notice');
    await notice.getByText('This entry cites a file that has a newer version').waitFor();
    expect(await notice.innerText()).toContain(`${old.remote_url} → ${current}`);
    await screens(page, 'kb-link-flagged', notice);

    await notice.getByRole('button', { name: 'Replace with the current URL' }).click();
    await notice.waitFor({ state: 'detached' });
    await entry.getByText('Old link').waitFor({ state: 'detached' });
    const entries = await stack.app.call('kb.entries', { botId });
    if (!entries.ok) throw new Error(entries.error.message);
    const prices = entries.value.entries.find((e) => e.title === 'Prices')!;
    expect(prices.description).toBe(`Download it here: ${current}. Ask us for anything else.`);
  });

  it("a mirror folder's local delete of a cited file is recorded in Activity, naming the entry, and the entry flagged", async () => {
    const brochure = row('brochure.pdf')!;
    rmSync(join(folder(), 'brochure.pdf'));
    await untilEvent(stack.app, 'the remote copy deleted', () => row('brochure.pdf')!.state === 'DELETED');
    expect((await stack.fileApi('GET', `/files/${brochure.remote_id}`)).status).toBe(410);
    const activity = await stack.app.call('activity.list', { limit: 50 });
    if (!activity.ok) throw new Error(activity.error.message);
    const warning = activity.value.find((a) => a.message.includes('“Brochure”'));
    expect(warning).toMatchObject({ level: 'warn' });
    expect(warning!.message).toContain(brochure.remote_url!);

    await nav('Activity');
    await page.getByText(warning!.message).waitFor();
    await nav('Knowledge');
    const entry = page.locator('[data-entry-title="Brochure"]');
    await entry.getByText('Dead link').waitFor();
    await entry.click();
    await page.locator('.kb-link-notice').getByText('no longer on the service').waitFor();
  });

  it('Upload from URL says in a toast what came in, from where, and to which bucket', async () => {
    await nav('Files');
    await page.getByRole('button', { name: 'Upload from URL', exact: true }).click();
    const form = page.getByRole('form', { name: 'Upload from a URL' });
    await form.getByLabel('Address of the file').fill(`${src}/price-list.pdf`);
    await form.getByLabel('Bucket').fill('brochures');
    await form.getByRole('button', { name: 'Upload', exact: true }).click();
    // It said "price-list.pdf is live.": neither from where nor to which bucket.
    await page
      .locator('.toast', {
        hasText: `Uploaded price-list.pdf from ${new URL(src).host} to bucket brochures: it is live.`,
      })
      .waitFor();
  });
});
