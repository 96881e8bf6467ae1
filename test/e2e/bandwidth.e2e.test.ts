import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screens, ZOOMABLE } from './screens';
import { launchChromium, type Stack, startStack } from './stack';

// Issue 12 in Chromium: the upload limit and the weekly grid in Settings, the limit in force in the
// Folders header, Pause all, and "Upload now" in the queue's Next-up lanes.
describe.sequential('bandwidth, schedule, pause all and Upload now in Chromium', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  const nav = (label: string) =>
    page.getByRole('navigation').getByRole('button', { name: label, exact: true }).click();

  beforeAll(async () => {
    stack = await startStack();
    browser = await launchChromium();
    page = await browser.newPage(ZOOMABLE);
    page.on('pageerror', (e) => console.error('page error:', e.message));
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('sets a limit and a schedule in Settings; a bad limit is refused with its message', async () => {
    await page.goto(stack.shell.url);
    await page.getByRole('button', { name: 'Try the local sandbox' }).click();
    await page.getByRole('heading', { name: 'Folders', exact: true }).waitFor();
    await nav('Settings');
    const limit = page.getByLabel('Upload limit');
    await limit.fill('fast');
    await limit.blur();
    await page
      .getByText(/is not a rate/)
      .first()
      .waitFor();
    await limit.fill('512k');
    await limit.blur();
    await expect
      .poll(
        async () =>
          (await stack.app.call('settings.get', {})).ok && (await stack.app.call('settings.get', {})),
      )
      .toMatchObject({ value: { bwlimit: '512k' } });
    // Monday 09:00 limited, Monday 10:00 paused (two clicks).
    await page.getByRole('button', { name: 'Mon 9:00 normal' }).click();
    await page.getByRole('button', { name: 'Mon 10:00 normal' }).click();
    await page.getByRole('button', { name: 'Mon 10:00 limited' }).click();
    await expect
      .poll(() => page.getByTestId('bw-schedule-text').textContent())
      .toBe('Sun-00:00,512k Mon-09:00,512k Mon-10:00,pause Mon-11:00,512k');
    await screens(page, 'bw-settings', page.getByRole('table', { name: 'Weekly schedule' }));
  });

  it('Pause all holds a folder; its files wait in the backlog lane; Upload now puts one in front', async () => {
    await stack.app.call('settings.update', { bwSchedule: '' });
    await nav('Folders');
    const folder = join(stack.root, 'site');
    mkdirSync(folder);
    for (const n of ['a.txt', 'b.txt', 'c.txt']) writeFileSync(join(folder, n), `${n}\n`);
    await page.getByTestId('bandwidth-in-force').getByText('Limited to 512 KiB/s').waitFor();
    // Pause all before the folder exists (the button shows once there is a folder): the core's command.
    expect((await stack.app.call('sync.pause', {})).ok).toBe(true);
    await page.getByRole('button', { name: 'Add folder' }).first().click();
    await page.getByLabel('Folder on this computer').fill(folder);
    await page.getByLabel('Bucket').fill('site');
    await page.getByRole('button', { name: 'Start syncing' }).click();
    await page.getByTestId('folder-card').waitFor();
    await page.getByRole('button', { name: 'Resume all' }).waitFor();
    await expect.poll(() => page.getByTestId('next-row').count(), { timeout: 20_000 }).toBe(3);
    const c = page.getByTestId('next-row').filter({ hasText: 'c.txt' });
    expect(await c.getAttribute('data-lane')).toBe('backlog');
    await c.getByRole('button', { name: 'Upload now' }).click();
    await expect.poll(() => page.getByTestId('next-row').first().textContent()).toContain('c.txt');
    expect(await page.getByTestId('next-row').first().getAttribute('data-lane')).toBe('now');
    const s = await stack.app.call('settings.get', {});
    expect(s.ok && s.value.pausedAll).toBe(true);
    await screens(page, 'bw-upload-now', page.getByRole('table', { name: 'Next to upload' }));
    await page.getByRole('button', { name: 'Resume all' }).click();
    await expect.poll(() => page.getByTestId('next-row').count(), { timeout: 30_000 }).toBe(0);
  });
});
