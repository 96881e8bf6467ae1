import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityItem } from '../../src-shared/contract';
import { formatIstTime } from '../../src-shared/domain/time-format';
import { screens, ZOOMABLE } from './screens';
import { launchChromium, type Stack, startStack } from './stack';

/**
 * What a user sees the same way everywhere (issue 11, "Consistency" and "Layout"): service times in IST
 * in a browser on another zone, the folder of each "Not uploaded" row, icons sized in buttons, and every
 * view but Files usable at 800x600 and 200% zoom.
 */
describe.sequential('consistency and layout, in Chromium on New York time', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  const nav = (label: string) =>
    page.getByRole('navigation').getByRole('button', { name: label, exact: true }).click();
  const ok = async <T>(p: Promise<{ ok: boolean; value?: unknown }>) => {
    const r = await p;
    expect(r.ok, JSON.stringify(r)).toBe(true);
    return r.value as T;
  };

  beforeAll(async () => {
    stack = await startStack();
    browser = await launchChromium();
    const context = await browser.newContext({ ...ZOOMABLE, timezoneId: 'America/New_York' });
    page = await context.newPage();
    page.on('pageerror', (e) => console.error('page error:', e.message));
    await ok(stack.app.call('session.useSandbox', {}));
    for (const name of ['alpha', 'beta']) {
      const dir = join(stack.root, name);
      mkdirSync(dir);
      writeFileSync(join(dir, 'setup.exe'), `not allowed in ${name}`);
      writeFileSync(join(dir, `${name}.txt`), `hello from ${name}\n`);
      if (name === 'alpha') {
        writeFileSync(join(dir, '.env'), 'SECRET=1');
        writeFileSync(join(dir, 'draft.tmp'), 'half');
        mkdirSync(join(dir, '.cache'));
        writeFileSync(join(dir, '.cache', 'big.bin'), 'x');
      }
      await ok(stack.app.call('sync.folders.add', { path: dir, bucket: name }));
    }
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('the browser runs on New York time and still shows service times in IST, labelled', async () => {
    await page.goto(stack.shell.url);
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(
      'America/New_York',
    );
    await nav('Activity');
    const first = page.getByRole('table', { name: 'Activity log' }).getByRole('cell').first();
    await first.waitFor();
    const items = await ok<ActivityItem[]>(stack.app.call('activity.list', {}));
    const shown = await first.textContent();
    expect(shown).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} IST$/);
    expect(items.map((a) => formatIstTime(a.at))).toContain(shown);
  });

  it('"Not uploaded" says which folder each of two setup.exe rows is in', async () => {
    await nav('Folders');
    const rows = page.getByTestId('problem-row').filter({ hasText: 'setup.exe' });
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(2);
    const folders = await rows.getByTestId('problem-folder').allTextContents();
    expect(folders.sort()).toEqual(['in alpha (alpha)', 'in beta (beta)']);
  });

  it('lists the files a folder ignores, collapsed, with the rule that ignored each', async () => {
    const card = page.getByTestId('folder-card').filter({ hasText: '/alpha' });
    const ignored = card.getByTestId('ignored-files');
    await expect
      .poll(() => ignored.locator('summary').textContent(), { timeout: 20_000 })
      .toMatch(/^3 ignored items/);
    await expect(ignored.getByTestId('ignored-row').first().isVisible()).resolves.toBe(false);
    await ignored.locator('summary').click();
    const rows = (await ignored.getByTestId('ignored-row').allTextContents()).sort();
    expect(rows).toEqual([
      '.cache/ — hidden folder (starts with a dot)',
      '.env — hidden file (starts with a dot)',
      'draft.tmp — temporary file (.tmp)',
    ]);
    await expect(
      page.getByTestId('folder-card').filter({ hasText: '/beta' }).getByTestId('ignored-files').count(),
    ).resolves.toBe(0);
    await screens(page, 'consistency-ignored-files', ignored);
  });

  it('icons inside buttons are icon-sized, square, whatever the button', async () => {
    const sizes = await page.evaluate(() =>
      [...document.querySelectorAll('.btn svg')].map((s) => {
        const r = s.getBoundingClientRect();
        return { w: Math.round(r.width), h: Math.round(r.height) };
      }),
    );
    expect(sizes.length).toBeGreaterThan(0);
    for (const s of sizes) {
      expect(s.w).toBeGreaterThanOrEqual(12);
      expect(s.w).toBeLessThanOrEqual(24);
      expect(s.h).toBe(s.w);
    }
  });

  it('Leads show when each arrived in IST, labelled', async () => {
    // Content for the screens below: two leads, and three billed days for Usage.
    await ok(stack.app.call('sandbox.raiseLead', { event: 'LEAD-CAPTURED' }));
    await ok(stack.app.call('sandbox.raiseLead', { event: 'HANDOFF-REQUESTED' }));
    await ok(stack.app.call('sandbox.advanceClock', { days: 3 }));
    await expect
      .poll(async () => (await ok<{ leads: unknown[] }>(stack.app.call('leads.list', {}))).leads.length, {
        timeout: 20_000,
      })
      .toBe(2);
    await nav('Leads');
    const received = page.locator('.lead-received').first();
    await received.waitFor();
    expect(await received.textContent()).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} IST$/);
  });

  it.each(['Folders', 'Activity', 'Usage', 'Account', 'Settings', 'Knowledge', 'Leads', 'Sandbox'])(
    '%s is usable at 800x600 and at 200 percent zoom, in light and dark',
    async (view) => {
      await nav(view);
      await page.getByRole('heading', { name: view, exact: true, level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
      await screens(page, `consistency-${view.toLowerCase()}`);
    },
  );
});
