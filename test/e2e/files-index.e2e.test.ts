import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { budgetFor } from '../../src-main/core/service/request-budget';
import { adminCall } from '../support/reference-server';
import { topSpread } from './layout';
import { screens, ZOOMABLE } from './screens';
import { browserApp } from './stack';

// 10,000: a thousand times a screen of rows, the windowing's point. The index at 100,000 files is the
// benchmark's (npm run bench:remote).
const SEEDED = 10_000;
const PDF = Buffer.from(
  '%PDF-1.1\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 100]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/**
 * The Files view on the remote index in Chromium, against a real core and its sandbox: empty, then
 * 10,000 seeded files (the admin seed, then the app's own refresh of the listing) shown through a
 * hand-written window of rows; sorting by each column with its arrow; headers over their columns;
 * search and the bucket, type and extension filters; and a preview that reads only the selected
 * file from the CDN.
 */
describe.sequential('Files view on the remote index', () => {
  // The sandbox's own limit out of the way: the 100 listing pages of the seeded account are read
  // by the app's real refresh, with the app's budget made unlimited below.
  const f = browserApp('files-index-e2e-', { sandboxRatePerMinute: 1_000_000 });
  const cdnRequests: string[] = [];
  let page: Page;

  const { live, api } = f;
  const upload = async (name: string, bytes: Buffer) => {
    const form = new FormData();
    form.set('bucket', 'media');
    form.set('name', name);
    form.set('file', new Blob([new Uint8Array(bytes)]), name);
    expect((await api('POST', '/files', form)).status).toBe(201);
  };
  const nav = (label: string) => f.nav(page, label);
  const rows = () => page.getByTestId('file-row');
  const total = () => page.getByTestId('files-total').textContent();
  const names = () => rows().locator('.c-name').allTextContents();
  const header = (label: string) => page.locator('.fhead button.sort', { hasText: label });

  /** Each visible header's left edge against its column's cells in the first row. */
  const misaligned = () =>
    page.evaluate(() => {
      const out: string[] = [];
      let compared = 0;
      const row = document.querySelector('[data-testid="file-row"]');
      for (const c of ['c-name', 'c-bucket', 'c-size', 'c-date', 'c-actions']) {
        const h = document.querySelector(`.fhead .${c}`)?.getBoundingClientRect();
        const d = row?.querySelector(`.${c}`)?.getBoundingClientRect();
        if (!h || !d || h.width === 0) continue;
        compared++;
        if (Math.abs(h.left - d.left) > 1 || Math.abs(h.right - d.right) > 1)
          out.push(`${c}: header ${h.left}-${h.right}, cells ${d.left}-${d.right}`);
      }
      return { compared, out };
    });

  beforeAll(async () => {
    page = await f.browser.newPage(ZOOMABLE);
    page.on('request', (r) => {
      if (r.url().includes('/storage/')) cdnRequests.push(r.url());
    });
  });

  it('says plainly when the account has no files', async () => {
    await page.goto(f.shell.url);
    await page.getByRole('button', { name: 'Try the local sandbox' }).click();
    await page.getByRole('heading', { name: 'Folders', exact: true }).waitFor();
    await nav('Files');
    await expect
      .poll(() => page.getByTestId('files-empty').textContent())
      .toContain('No files on this account yet');
    expect(await total()).toMatch(/^0 files/);
    await screens(page, 'files-empty');
  });

  it('previews the selected image or PDF from the CDN, and loads nothing for rows not selected', async () => {
    // 240x160 CSS pixels at device scale 2: a 480x320 PNG.
    const png = await page.screenshot({ clip: { x: 0, y: 0, width: 240, height: 160 } });
    await upload('screen.png', png);
    await upload('price-list.pdf', PDF);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(total).toMatch(/^2 files/);
    expect(cdnRequests).toEqual([]);

    await rows().filter({ hasText: 'screen.png' }).locator('.c-name').click();
    const img = page.getByTestId('preview').locator('img');
    await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(480);
    expect(cdnRequests).toHaveLength(1);
    expect(cdnRequests[0]).toMatch(/screen\.png$/);
    await screens(page, 'files-preview-image', page.getByTestId('preview'));
    // With the preview open the selection's actions stand in one row (Delete… went to a line of its
    // own), and the filters' select labels are level with the text fields' (they sat 2 px lower).
    const bar = page.getByRole('toolbar', { name: 'Selection' });
    expect(await topSpread(await bar.getByRole('button').all())).toBe(0);
    const filters = page.getByRole('search', { name: 'Filter files' });
    expect(await topSpread(await filters.locator('label.field').all())).toBeLessThan(0.5);

    await rows().filter({ hasText: 'price-list.pdf' }).locator('.c-name').click();
    const embed = page.getByTestId('preview').locator('embed');
    expect(await embed.getAttribute('src')).toMatch(/price-list\.pdf$/);
    expect(await embed.getAttribute('type')).toBe('application/pdf');
    await screens(page, 'files-preview-pdf', page.getByTestId('preview'));
    await page.getByRole('button', { name: 'Close preview' }).click();
  });

  it('shows 10,000 seeded files through a window of rows', async () => {
    const me = (await api('GET', '/me')).json as { data: { client: { id: number } } };
    const adm = await adminCall(live().baseUrl, live().adminToken!, 'POST', '/files/seed', {
      client_id: me.data.client.id,
      count: SEEDED,
      buckets: ['alpha', 'beta'],
      bytes: 2048,
    });
    expect(adm.status).toBe(201);
    budgetFor(live().baseUrl, 'files').configure({ perMinute: 0 });
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(total, { timeout: 170_000, interval: 500 }).toMatch(/^10,002 files/);
    // Back to the default budget: the daily walk that follows goes at its 5% share, as in the app.
    budgetFor(live().baseUrl, 'files').configure({ perMinute: 115 });
    // Only the rows in view exist.
    expect(await rows().count()).toBeLessThan(60);
    expect((await names())[0]).toBe(`seed-${SEEDED}.pdf`);
    // The oldest at the very bottom.
    await page.locator('.ftable').evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await expect.poll(async () => (await names()).at(-1)).toBe('screen.png');
    await page.locator('.ftable').evaluate((el) => {
      el.scrollTop = 0;
    });
    await expect.poll(async () => (await names())[0]).toBe(`seed-${SEEDED}.pdf`);
    await screens(page, 'files-10k');
  }, 180_000);

  it('puts each header over its column, at full width and at 800x600', async () => {
    // Every column at full width; at 800x600 bucket and date give way to name, size and the actions.
    expect(await misaligned()).toEqual({ compared: 5, out: [] });
    await page.setViewportSize({ width: 800, height: 600 });
    try {
      expect(await misaligned()).toEqual({ compared: 3, out: [] });
      // The actions of a row are on screen.
      const box = await rows()
        .first()
        .getByRole('button', { name: /^Delete / })
        .boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(800);
    } finally {
      await page.setViewportSize(ZOOMABLE.viewport);
    }
  });

  it('sorts by name, size, date and bucket, the arrow showing the order', async () => {
    await header('Name').click();
    await expect.poll(async () => (await header('Name').textContent())?.trim()).toBe('Name▲');
    expect(await header('Size').textContent()).toBe('Size');
    await expect.poll(async () => (await names())[0]).toBe('price-list.pdf');
    await header('Name').click();
    await expect.poll(async () => (await header('Name').textContent())?.trim()).toBe('Name▼');
    await expect.poll(async () => (await names())[0]).toBe('seed-9999.pdf');

    await header('Size').click();
    await expect.poll(async () => (await names())[0]).toBe('screen.png');
    expect(await header('Size').textContent()).toBe('Size▼');

    await header('Bucket').click();
    await expect
      .poll(async () => (await rows().first().locator('.c-bucket').textContent()) ?? '')
      .toBe('alpha');
    await header('Bucket').click();
    await expect
      .poll(async () => (await rows().first().locator('.c-bucket').textContent()) ?? '')
      .toBe('media');

    await header('Uploaded').click();
    await expect.poll(async () => (await names())[0]).toBe(`seed-${SEEDED}.pdf`);
  });

  it('searches and filters by bucket, type and extension over the whole index', async () => {
    const search = page.getByRole('searchbox', { name: 'Name contains' });
    await search.fill('seed-9999');
    await expect.poll(total).toMatch(/^1 file ·/);
    await search.fill('');
    await expect.poll(total).toMatch(/^10,002 files/);

    await page.getByRole('combobox', { name: 'Bucket' }).selectOption('alpha');
    await expect.poll(total).toMatch(/^5,000 files/);
    await page.getByRole('combobox', { name: 'Bucket' }).selectOption('');

    await page.getByRole('combobox', { name: 'Type' }).selectOption('image');
    await expect.poll(total).toMatch(/^1 file ·/);
    expect(await names()).toEqual(['screen.png']);
    await page.getByRole('combobox', { name: 'Type' }).selectOption('');

    await page.getByRole('textbox', { name: 'Extensions' }).fill('pdf');
    await expect.poll(total).toMatch(/^10,001 files/);
    await page.getByRole('textbox', { name: 'Extensions' }).fill('png, pdf');
    await expect.poll(total).toMatch(/^10,002 files/);
  });

  it('shows the first rows of a cold start from the index without a listing', async () => {
    await f.restart();
    await page.goto(f.shell.url);
    // The sandbox reopens its 10,000 files first (the reference server's start, not the app's).
    await page
      .getByRole('navigation')
      .getByRole('button', { name: 'Files', exact: true })
      .waitFor({ timeout: 120_000 });
    const t0 = Date.now();
    await nav('Files');
    await rows().first().waitFor();
    // A figure for the report, not a timed assertion (benchmarks measure it against a baseline).
    console.log(`files e2e: first rows of 10,002 after a cold start in ${Date.now() - t0} ms`);
    // Polled: the list may be drawn anew as the index's first commits after the restart land.
    await expect.poll(async () => (await names())[0]).toBe(`seed-${SEEDED}.pdf`);
  }, 180_000);
});
