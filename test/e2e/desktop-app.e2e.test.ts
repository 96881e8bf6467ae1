import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, SCREENSHOTS, type Stack, startStack } from './stack';

// One story, in order, through the headless shell in real Chromium: each step builds on the last.
describe.sequential('the desktop app in Chromium (headless shell, real core, real sandbox)', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let folder: string;
  const shot = (name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  const nav = (label: string) =>
    page.getByRole('navigation').getByRole('button', { name: label, exact: true }).click();
  const count = (which: string) => page.getByTestId(`count-${which}`).first().textContent();

  beforeAll(async () => {
    stack = await startStack();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 820 } });
    page.on('pageerror', (e) => console.error('page error:', e.message));
    page.on('console', (m) => m.type() === 'error' && console.error('page console:', m.text()));
    folder = join(stack.root, 'site');
    mkdirSync(folder);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('first run offers the sandbox and an account, and starts in the sandbox', async () => {
    const started = Date.now();
    await page.goto(stack.shell.url);
    await page.getByRole('heading', { name: 'Welcome to Assets Sync' }).waitFor();
    console.log(`headless shell: page to first render ${Date.now() - started} ms`);
    expect(new URL(page.url()).hash).toBe(''); // the token left the address bar
    await shot('first-run');
    await page.getByRole('button', { name: 'Try the local sandbox' }).click();
    await page.getByRole('heading', { name: 'Folders', exact: true }).waitFor();
    await page.getByText('No folders yet').waitFor();
  });

  it('adds a folder; files written into it go live', async () => {
    await page.getByRole('button', { name: 'Add folder' }).first().click();
    await page.getByLabel('Folder on this computer').fill(folder);
    await page.getByLabel('Bucket').fill('site');
    await page.getByRole('button', { name: 'Start syncing' }).click();
    // The form closes when the core has answered (scan done, watcher on).
    await page.getByRole('button', { name: 'Start syncing' }).waitFor({ state: 'detached' });
    await page.getByTestId('folder-card').waitFor();

    writeFileSync(join(folder, 'hello.txt'), 'hello from the e2e test\n');
    writeFileSync(join(folder, 'data.json'), JSON.stringify({ n: 42 }));
    writeFileSync(join(folder, 'tool.exe'), 'not allowed');
    await expect.poll(() => count('live'), { timeout: 20_000 }).toBe('2');
    await expect.poll(() => count('skipped')).toBe('1');
    await page.getByText('EXTENSION-NOT-ALLOWED').waitFor();
    await shot('folders');
  });

  it('lists the live files; a shown URL serves the same bytes', async () => {
    await nav('Files');
    await page.getByTestId('file-row').nth(1).waitFor();
    const link = page.getByTestId('file-row').filter({ hasText: 'hello.txt' }).getByTestId('file-url');
    const url = await link.getAttribute('href');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/storage\//);
    const served = Buffer.from(await (await fetch(url!)).arrayBuffer());
    expect(served.equals(readFileSync(join(folder, 'hello.txt')))).toBe(true);
    await page.getByLabel('Name contains').fill('data');
    await expect.poll(() => page.getByTestId('file-row').count()).toBe(1);
    await page.getByLabel('Name contains').fill('');
    await expect.poll(() => page.getByTestId('file-row').count()).toBe(2);
    await shot('files');
  });

  it('deletes a file after a confirmation that names it', async () => {
    const row = page.getByTestId('file-row').filter({ hasText: 'data.json' });
    const url = await row.getByTestId('file-url').getAttribute('href');
    await page.getByRole('button', { name: 'Delete data.json' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByRole('heading').textContent()).toBe('Delete data.json?');
    await dialog.getByRole('button', { name: 'Delete file' }).click();
    await expect.poll(() => page.getByTestId('file-row').count()).toBe(1);
    expect((await fetch(url!)).status).not.toBe(200);
  });

  it('arrears: a banner on every view and a paused queue', async () => {
    // A day's rent is at least one paisa only from ~64 MB (binary GB, 5 rupees a month): store one.
    writeFileSync(join(folder, 'big.mp4'), Buffer.alloc(70_000_000, 7));
    await nav('Folders');
    await expect.poll(() => count('live'), { timeout: 30_000 }).toBe('3');
    await stack.admin('POST', '/clients/1/wallet', { amount_paise: -10_000 });
    await stack.admin('POST', '/clock/advance', { seconds: 86_400 });
    writeFileSync(join(folder, 'late.txt'), 'written while in arrears');
    const banner = page.getByTestId('account-banner');
    await expect.poll(() => banner.textContent(), { timeout: 20_000 }).toMatch(/rent unpaid/);
    await expect.poll(() => page.getByTestId('sync-state').textContent()).toMatch(/Paused/);
    expect(await count('pending')).toBe('1');
    await shot('folders-arrears');
    await nav('Account');
    await page.getByTestId('arrears').waitFor();
    expect(await page.getByTestId('account-banner').isVisible()).toBe(true);
    await shot('account-arrears');
  });

  it('a top-up settles the arrears and the queue resumes by itself', async () => {
    await stack.admin('POST', '/clients/1/wallet', { amount_paise: 50_000 });
    await nav('Folders');
    await expect.poll(() => count('live'), { timeout: 20_000 }).toBe('4');
    await expect.poll(() => page.getByTestId('account-banner').count(), { timeout: 10_000 }).toBe(0);
    await nav('Account');
    await page.getByTestId('wallet').waitFor();
    await shot('account');
  });

  it('days that pass show in the usage chart and table', async () => {
    await stack.admin('POST', '/clock/advance', { seconds: 3 * 86_400 });
    await nav('Usage');
    await page.getByTestId('usage-chart').waitFor();
    await expect
      .poll(() => page.getByTestId('usage-table').locator('tbody tr').count())
      .toBeGreaterThanOrEqual(4);
    expect(await page.getByTestId('usage-chart').locator('rect.bar').count()).toBeGreaterThanOrEqual(4);
    await shot('usage');
  });

  it('Files renders 10,000 files at once, virtualized', async () => {
    const source = stack.app.context.cacheSource()!;
    const files = Array.from({ length: 10_000 }, (_, i) => ({
      id: 100_000 + i,
      url: `http://127.0.0.1:1/storage/1/bulk/${i}.png`,
      bucket: 'bulk',
      name: `photo-${String(i).padStart(5, '0')}.png`,
      extension: 'png',
      mime: 'image/png',
      size_bytes: 1000 + i,
      hash: 'd41d8cd98f00b204e9800998ecf8427e',
      status: 'ACTIVE' as const,
      created_at: '2026-11-20 10:00',
    }));
    // The view's local copy, as a refresh of a 10,000-file account leaves it (fresh, so no re-read).
    stack.app.context.views.replaceFiles(source, files, Date.now());
    await nav('Folders');
    const t0 = await page.evaluate(() => performance.now());
    await nav('Files');
    await page.getByTestId('files-total').filter({ hasText: '10,000 files' }).waitFor();
    await page.getByText('photo-09999.png').waitFor();
    const t1 = await page.evaluate(() => performance.now());
    console.log(`Files with 10,000 files: first render ${Math.round(t1 - t0)} ms (in the page)`);
    expect(await page.getByTestId('file-row').count()).toBeLessThan(100);
    await shot('files-10k');
  });

  it('activity and settings views render; dark theme', async () => {
    await nav('Activity');
    await page.getByRole('table', { name: 'Activity log' }).waitFor();
    await shot('activity');
    await nav('Settings');
    await page.getByLabel('Theme').selectOption('dark');
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await shot('settings-dark');
    await nav('Folders');
    await shot('folders-dark');
    await nav('Settings');
    await page.getByLabel('Theme').selectOption('light');
  });
});
