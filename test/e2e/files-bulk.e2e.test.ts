import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { budgetFor, LANES } from '../../src-main/core/service/request-budget';
import type { BulkDeleteJob } from '../../src-shared/contract';
import { formatBytes } from '../../src-shared/domain/bytes';
import { rentSavingSentence } from '../../src-shared/domain/rent-saving';
import { screens, ZOOMABLE } from './screens';
import { browserApp } from './stack';

const FILES = 24;
const EACH = 1024 * 1024;

/**
 * Select many and act on them, in Chromium against a real core and its sandbox: click, shift-click,
 * ctrl-click and "select all" of a filter; a delete confirmation naming the count, the bytes, the
 * rent saved and the two knowledge entries it would break; then the delete itself as a job that the
 * core is closed in the middle of and that finishes after the restart (a file deleted elsewhere
 * meanwhile, a 410, counts as done). Copy URLs and the CSV/JSON export of the selection.
 */
describe.sequential('Files view: select many, delete, copy, export', () => {
  const f = browserApp('files-bulk-e2e-');
  let context: BrowserContext;
  let page: Page;
  let seeded: { first_id: number; last_id: number };

  const { admin, api, live } = f;
  const nav = (label: string) => f.nav(page, label);
  const rows = () => page.getByTestId('file-row');
  const count = () => page.getByTestId('selection-count').textContent();
  const job = async () => {
    const r = await f.app.call('files.bulkDelete.progress', {});
    if (!r.ok) throw new Error(r.error.message);
    return r.value as BulkDeleteJob | null;
  };

  beforeAll(async () => {
    context = await f.browser.newContext({ ...ZOOMABLE, acceptDownloads: true });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(f.shell.url).origin,
    });
    page = await context.newPage();
  });

  it('shows a seeded bucket in the Files view', async () => {
    await page.goto(f.shell.url);
    await page.getByRole('button', { name: 'Try the local sandbox' }).click();
    await page.getByRole('heading', { name: 'Folders', exact: true }).waitFor();
    const me = (await api('GET', '/me')).json as { data: { client: { id: number } } };
    seeded = (await admin('POST', '/files/seed', {
      client_id: me.data.client.id,
      count: FILES,
      bucket: 'bulk',
      bytes: EACH,
      prefix: 'bulk-',
    })) as unknown as typeof seeded;
    await nav('Files');
    await page.getByRole('heading', { name: 'Files', exact: true, level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => page.getByTestId('files-total').textContent()).toMatch(/^24 files/);
  });

  it('selects by click, shift-click and ctrl-click, and all a filter matches', async () => {
    await rows().nth(0).locator('.c-name').click();
    expect(await count()).toBe('1 file selected');
    await rows()
      .nth(4)
      .locator('.c-name')
      .click({ modifiers: ['Shift'] });
    expect(await count()).toBe('5 files selected');
    await rows()
      .nth(2)
      .locator('.c-name')
      .click({ modifiers: ['Control'] });
    expect(await count()).toBe('4 files selected');
    expect(await rows().nth(2).getAttribute('data-picked')).toBe(null);
    await page.getByRole('button', { name: 'Select all 24' }).click();
    expect(await count()).toBe('24 files selected');
  });

  it('copies the URLs of the whole selection, one a line', async () => {
    await page.getByRole('button', { name: 'Copy URLs' }).click();
    await expect
      .poll(async () => (await page.evaluate(() => navigator.clipboard.readText())).split('\n').length)
      .toBe(FILES);
    const text = await page.evaluate(() => navigator.clipboard.readText());
    expect(text.split('\n').every((u) => /^https?:\/\/.+bulk-\d+\.pdf$/.test(u))).toBe(true);
  });

  it('exports the selection as CSV and JSON through a download', async () => {
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(csv.suggestedFilename()).toMatch(/^files-\d{4}-\d\d-\d\d\.csv$/);
    const csvText = readFileSync((await csv.path())!, 'utf8');
    const lines = csvText.trim().split('\r\n');
    expect(lines[0]).toBe('id,name,bucket,url,size,md5,created_at (ISO 8601 in IST +05:30),mime');
    expect(lines).toHaveLength(FILES + 1);
    const [json] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export JSON' }).click(),
    ]);
    const parsed = JSON.parse(readFileSync((await json.path())!, 'utf8')) as { name: string; size: number }[];
    expect(parsed).toHaveLength(FILES);
    expect(parsed.every((f) => f.size === EACH && f.name.startsWith('bulk-'))).toBe(true);
  });

  it('confirms with the count, the bytes, the rent saved and the entries it would break', async () => {
    // Two knowledge entries cite files of the selection.
    const bots = await f.app.call('kb.bots', {});
    if (!bots.ok) throw new Error(bots.error.message);
    const botId = bots.value.bots[0]!.id;
    const first = await api('GET', `/files/${seeded.first_id}`);
    const second = await api('GET', `/files/${seeded.first_id + 1}`);
    const urlOf = (r: { json: unknown }) => (r.json as { data: { url: string } }).data.url;
    for (const [title, url] of [
      ['Price list', urlOf(first)],
      ['Brochure', urlOf(second)],
    ] as const) {
      const made = await f.app.call('kb.create', { botId, title, description: `See ${url}.` });
      expect(made.ok).toBe(true);
    }
    const me = (await api('GET', '/me')).json as {
      data: { usage: { bytes_used: number }; pricing: { per_gb_month_paise: number } };
    };
    const saved = rentSavingSentence(
      me.data.usage.bytes_used,
      FILES * EACH,
      me.data.pricing.per_gb_month_paise,
    );

    await page.getByRole('button', { name: 'Delete…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Delete 24 files?' }).waitFor();
    const text = () => dialog.getByTestId('delete-confirmation').textContent();
    await expect.poll(text).toContain(formatBytes(FILES * EACH));
    await expect.poll(text).toContain(saved);
    expect(await text()).not.toContain('₹0.00 of rent a day');
    await expect.poll(text).toContain('2 knowledge entries cite these files');
    expect(await text()).toContain('Price list');
    expect(await text()).toContain('Brochure');
    await screens(page, 'files-bulk-confirm', dialog);
  });

  it('deletes within the budget, goes on after a restart, and counts a 410 as done', async () => {
    // A budget with room for about 8 more requests this minute, so that the job is still waiting for
    // places when the core closes.
    const baseUrl = live().baseUrl;
    const budget = budgetFor(baseUrl, 'files');
    const used = LANES.reduce((n, lane) => n + budget.grantedIn(lane), 0);
    expect((await f.app.call('settings.update', { requestsPerMinute: used + 8 })).ok).toBe(true);
    // Deleted elsewhere meanwhile: the job meets a 410 for it.
    expect([200, 202]).toContain((await api('DELETE', `/files/${seeded.last_id}`)).status);
    await page.getByRole('dialog').getByRole('button', { name: 'Delete 24 files' }).click();
    await page.getByTestId('bulk-progress').waitFor();
    await expect.poll(async () => (await job())?.done ?? 0).toBeGreaterThanOrEqual(3);
    await screens(page, 'files-bulk-progress', page.getByTestId('bulk-progress'));

    // The window is spent and the job waits for places: close the core in the middle of it.
    const before = (await job())!;
    await f.shell.close();
    await f.app.close();
    const stopped = before.done + before.failed;
    expect(stopped).toBeLessThan(FILES);

    // A new process starts with an empty window; this one keeps the address's budget (a module of the
    // process), still full at the low ceiling. Its allowance back to the default before the core opens
    // again, as the restarted app would have it: the job goes on at once (opening the sandbox's
    // connection asks the same budget for a place, and would otherwise wait out the minute).
    budgetFor(baseUrl, 'files', { perMinute: 115 });
    await f.open();
    expect((await f.app.call('settings.update', { requestsPerMinute: 115 })).ok).toBe(true);
    await page.goto(f.shell.url);
    await nav('Files');
    await expect.poll(async () => (await job())?.state, { timeout: 60_000, interval: 250 }).toBe('finished');
    const after = (await job())!;
    expect(after).toMatchObject({ total: FILES, done: FILES, failed: 0 });
    await expect.poll(() => page.getByTestId('files-total').textContent()).toMatch(/^0 files/);
    await expect.poll(() => page.getByTestId('bulk-progress').textContent()).toContain('Deleted 24 files');
    const listed = (await api('GET', '/files?bucket=bulk')).json as { data: unknown[] };
    expect(listed.data).toHaveLength(0);
  }, 120_000);
});
