import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topSpread } from './layout';
import { screens, ZOOMABLE } from './screens';
import { launchChromium, type Stack, startStack } from './stack';

/** The Preview step of Add folder and a watched folder's Preview, in Chromium against a real core and sandbox. */
describe.sequential('the dry run in Chromium', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let folder: string;

  beforeAll(async () => {
    stack = await startStack();
    browser = await launchChromium();
    page = await (await browser.newContext(ZOOMABLE)).newPage();
    page.on('pageerror', (e) => console.error('page error:', e.message));
    folder = join(stack.root, 'preview');
    mkdirSync(join(folder, 'sub'), { recursive: true });
    writeFileSync(join(folder, 'a.txt'), 'alpha\n');
    writeFileSync(join(folder, 'sub/a-copy.txt'), 'alpha\n');
    writeFileSync(join(folder, 'b.json'), '{"b":1}');
    writeFileSync(join(folder, 'tool.exe'), 'not allowed');
    writeFileSync(join(folder, 'empty.txt'), '');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('Add folder previews what it would send and cost, uploading nothing', async () => {
    await page.goto(stack.shell.url);
    await page.getByRole('button', { name: 'Try the local sandbox' }).click();
    await page.getByRole('heading', { name: 'Folders', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Add folder' }).first().click();
    await page.getByLabel('Folder on this computer').fill(folder);
    await page.getByLabel('Bucket').fill('preview');
    const preview = page.getByRole('button', { name: 'Preview' });
    const before = await preview.boundingBox();
    await preview.click();
    const report = page.getByTestId('dry-run-report');
    await report.waitFor();
    // The button stays where it was clicked (it jumped to the row's far end when the report opened).
    expect(await preview.boundingBox()).toEqual(before);
    // The select's label is level with the text fields' (it sat 2 px lower).
    const form = page.getByRole('form', { name: 'Add a folder' });
    expect(await topSpread(await form.locator('label.field').all())).toBeLessThan(0.5);
    expect(await page.getByTestId('dry-upload').textContent()).toMatch(/^3 · /);
    expect(await page.getByTestId('dry-skip').textContent()).toBe('2');
    expect(await report.textContent()).toMatch(/file types the service does not accept: 1 /);
    expect(await report.textContent()).toMatch(/Identical content/);
    expect(await page.getByTestId('dry-wallet').textContent()).toMatch(
      /holds the ₹[\d.,]+ it must for uploads now/,
    );
    // Nothing was uploaded by the preview.
    const listed = (await stack.fileApi('GET', '/files?bucket=preview')).json as { data: unknown[] };
    expect(listed.data).toHaveLength(0);
    const shots = await screens(page, 'dry-run-add-folder', report);
    console.log(shots.join('\n'));
  }, 60_000);

  it('a watched folder shows its rent share and previews as all live', async () => {
    await page.getByRole('button', { name: 'Start syncing' }).click();
    await page.getByRole('button', { name: 'Start syncing' }).waitFor({ state: 'detached' });
    const card = page.getByTestId('folder-card');
    await expect.poll(() => card.getByTestId('count-live').textContent(), { timeout: 20_000 }).toBe('3');
    await expect.poll(() => card.getByTestId('folder-rent-share').textContent()).toMatch(/₹0\.00 a day/);
    const before = await card.getByRole('button', { name: 'Preview' }).boundingBox();
    await card.getByRole('button', { name: 'Preview' }).click();
    await card.getByTestId('dry-run-report').waitFor();
    expect(await card.getByRole('button', { name: 'Preview' }).boundingBox()).toEqual(before);
    expect(await card.getByTestId('dry-upload').textContent()).toMatch(/^0 · /);
    expect(await card.getByTestId('dry-live').textContent()).toBe('3');
    const shots = await screens(page, 'dry-run-watched-folder', card);
    console.log(shots.join('\n'));
  }, 60_000);
});
