import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screens, ZOOMABLE } from './screens';
import { launchChromium, type Stack, startStack } from './stack';

/**
 * Issue 18, in Chromium against a real core and its sandbox: files of a watched folder deleted from
 * the Files view, both ways the dialog offers, and then the folder looked at. "Stop syncing" leaves
 * the local file and the folder says it was removed from the CDN by you; "send again" uploads the two
 * files under new links and the folder says Live for them again, truly (their new URLs answer).
 */
describe.sequential('Files view: deleting a watched folder’s files', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let folder: string;
  const nav = (label: string) =>
    page.getByRole('navigation').getByRole('button', { name: label, exact: true }).click();
  const rows = () => page.getByTestId('file-row');
  const dialog = () => page.getByRole('dialog');
  const until = async (what: string, check: () => Promise<boolean>) => {
    const end = Date.now() + 60_000;
    while (!(await check())) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const overviewFolder = async () => {
    const o = await stack.app.call('sync.overview', {});
    if (!o.ok) throw new Error(o.error.message);
    return o.value.folders[0]!;
  };

  beforeAll(async () => {
    stack = await startStack();
    browser = await launchChromium();
    page = await (await browser.newContext(ZOOMABLE)).newPage();
    expect((await stack.app.call('session.useSandbox', {})).ok).toBe(true);
    folder = join(stack.root, 'brochures');
    mkdirSync(folder);
    for (const n of ['autumn.pdf', 'spring.pdf', 'summer.pdf', 'winter.pdf'])
      writeFileSync(join(folder, n), `%PDF-1.4 ${n}`);
    expect((await stack.app.call('sync.folders.add', { path: folder, bucket: 'brochures' })).ok).toBe(true);
    await until('four files live', async () => (await overviewFolder()).counts.live === 4);
    await page.goto(stack.shell.url);
    await nav('Files');
    await until('four rows', async () => (await rows().count()) === 4);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('the dialog names the folder; "stop syncing" keeps the local file and the folder says removed by you', async () => {
    await page.getByRole('button', { name: 'Delete autumn.pdf' }).click();
    await dialog().getByTestId('folder-choice').waitFor();
    expect(await dialog().getByTestId('folder-choice-folder').textContent()).toContain(folder);
    const confirm = dialog().getByRole('button', { name: 'Delete file' });
    // No default: the person chooses what the folder does next.
    expect(await confirm.isDisabled()).toBe(true);
    await dialog()
      .getByRole('radio', { name: /Delete and stop syncing it/ })
      .check();
    await screens(page, 'folder-delete-dialog', dialog());
    await confirm.click();
    await expect.poll(() => rows().count(), { timeout: 30_000 }).toBe(3);
    expect(readFileSync(join(folder, 'autumn.pdf'), 'utf8')).toContain('autumn.pdf');

    await nav('Folders');
    const card = page.getByTestId('folder-card');
    await expect
      .poll(() => card.getByTestId('count-removed-by-you').textContent(), { timeout: 20_000 })
      .toContain('1');
    expect(await card.getByTestId('count-live').textContent()).toBe('3');
    await screens(page, 'folder-delete-removed-by-you', card);
  }, 120_000);

  it('"send again": two files deleted and uploaded under new links; the folder is live for them again', async () => {
    await nav('Files');
    await expect.poll(() => rows().count()).toBe(3);
    const before = await stack.app.call('files.index.query', {});
    const oldUrls = before.ok
      ? before.value.files.filter((f) => f.name !== 'winter.pdf').map((f) => f.url)
      : [];
    await page.getByRole('checkbox', { name: 'Select spring.pdf' }).check();
    await page.getByRole('checkbox', { name: 'Select summer.pdf' }).check();
    await page.getByRole('button', { name: 'Delete…' }).click();
    await dialog().getByTestId('folder-choice').waitFor();
    await dialog()
      .getByRole('radio', { name: /Delete and let the folder send them again/ })
      .check();
    await screens(page, 'folder-delete-send-again-dialog', dialog());
    await dialog().getByRole('button', { name: 'Delete 2 files' }).click();

    // Deleted, then sent again: new ids and URLs in the index, the old links dead, the new ones answer.
    await expect
      .poll(
        async () => {
          const r = await stack.app.call('files.index.query', {});
          return r.ok ? r.value.files.filter((f) => !oldUrls.includes(f.url)).length : 0;
        },
        { timeout: 60_000 },
      )
      .toBe(3);
    const after = await stack.app.call('files.index.query', {});
    const fresh = after.ok ? after.value.files.filter((f) => f.name !== 'winter.pdf') : [];
    expect(fresh).toHaveLength(2);
    for (const f of fresh) expect((await fetch(f.url)).status).toBe(200);
    for (const url of oldUrls.filter((u) => !u.includes('winter')))
      expect((await fetch(url)).status).toBeGreaterThanOrEqual(400);

    await nav('Folders');
    const card = page.getByTestId('folder-card');
    await expect.poll(() => card.getByTestId('count-live').textContent(), { timeout: 30_000 }).toBe('3');
    expect(await card.getByTestId('count-removed-by-you').textContent()).toContain('1');
    await nav('Activity');
    await page
      .getByText(/spring\.pdf was deleted in this app's Files view \(seen .*\); sending it again/)
      .waitFor({ timeout: 20_000 });
    await screens(page, 'folder-delete-activity');
  }, 120_000);
});
