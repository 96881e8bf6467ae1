import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit } from './a11y';
import { screens, ZOOMABLE } from './screens';
import { launchChromium, type Stack, startStack } from './stack';

/**
 * Issue 23, accessibility: axe (WCAG 2.1 AA, serious and critical fail) on the views the other e2e
 * files do not picture (first run, Files with a selection, its delete dialog), the sidebar's status at
 * 800x600, flows by keyboard alone (Tab to reach, Enter and Space to act, Escape to close, focus back
 * where it was), with a visible focus ring on each stop, and the live region that speaks without a look.
 */
describe.sequential('accessibility: axe on every view, the keyboard alone, live regions', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  const nav = (label: string) =>
    page.getByRole('navigation').getByRole('button', { name: label, exact: true }).click();

  /** Presses Tab until the focused element's accessible name matches; checks each stop shows focus. */
  async function tabTo(name: RegExp, max = 80): Promise<void> {
    const seen: string[] = [];
    for (let i = 0; i < max; i++) {
      await page.keyboard.press('Tab');
      const f = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return null;
        const label =
          el.getAttribute('aria-label') ??
          (el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null) ??
          el.closest('label')?.textContent ??
          el.textContent ??
          '';
        const s = getComputedStyle(el);
        // A ring: an outline, or the fields' focus shadow.
        const outline = s.outlineStyle !== 'none' && s.outlineWidth !== '0px';
        return { label: label.trim(), ring: outline || s.boxShadow !== 'none' };
      });
      if (!f) continue;
      seen.push(f.label.slice(0, 40));
      expect(f.ring, `no visible focus on "${f.label}"`).toBe(true);
      if (name.test(f.label)) return;
    }
    throw new Error(`Tab never reached ${name}; it went through ${seen.join(' | ')}`);
  }

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

  it('the first run passes the audit in every look', async () => {
    await page.goto(stack.shell.url);
    await page.getByRole('button', { name: 'Try the local sandbox' }).waitFor();
    await screens(page, 'a11y-first-run');
  });

  it('by keyboard alone: the sandbox chosen, a folder added with its preview', async () => {
    await tabTo(/^Try the local sandbox/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Folders', exact: true, level: 1 }).waitFor();
    const dir = join(stack.root, 'keys');
    mkdirSync(dir);
    for (const n of ['a.txt', 'b.txt', 'setup.exe']) writeFileSync(join(dir, n), `${n}\n`);
    await tabTo(/^Add folder$/);
    await page.keyboard.press('Enter');
    await tabTo(/^Folder on this computer$/);
    await page.keyboard.type(dir);
    await tabTo(/^Bucket/);
    await page.keyboard.type('keys');
    await tabTo(/^Preview$/);
    await page.keyboard.press('Enter');
    await page.getByTestId('dry-run-report').waitFor();
    expect(await page.getByTestId('dry-run-report').textContent()).toContain(
      'file types the service does not accept',
    );
    await tabTo(/^Start syncing/);
    await page.keyboard.press('Enter');
    await page.getByTestId('folder-card').waitFor();
    // A folder going in sync is said in the live region, without a look.
    await expect
      .poll(() => page.getByTestId('announcer').textContent(), { timeout: 30_000 })
      .toMatch(/Folder in sync: .*keys is in sync\./);
  });

  it('the sidebar keeps its status block in view at 800x600, without scrolling', async () => {
    await page.setViewportSize({ width: 800, height: 600 });
    const m = await page.evaluate(() => {
      const side = document.querySelector('.sidebar')!;
      const foot = document.querySelector('.sidebar-foot')!.getBoundingClientRect();
      return { bottom: foot.bottom, scrolls: side.scrollHeight > side.clientHeight };
    });
    await page.setViewportSize(ZOOMABLE.viewport);
    expect(m.scrolls).toBe(false);
    expect(m.bottom).toBeLessThanOrEqual(600);
  });

  it('Files: audited with a selection and with its delete dialog; the dialog closes on Escape and gives focus back', async () => {
    await nav('Files');
    await page.getByRole('heading', { name: 'Files', exact: true, level: 1 }).waitFor();
    await expect.poll(() => page.getByText('a.txt').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await screens(page, 'a11y-files');
    await tabTo(/^Select all/);
    await page.keyboard.press('Enter');
    await tabTo(/^Delete…/);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await audit(page, 'a11y-files-delete-dialog');
    // Focus is trapped in the dialog: Tab stays inside it.
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('dialog'))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toMatch(/Delete…/);
  });

  it('a new lead is said in the live region', async () => {
    const r = await stack.app.call('sandbox.raiseLead', { event: 'LEAD-CAPTURED' });
    expect(r.ok).toBe(true);
    const name = r.ok ? r.value.name : '';
    await expect
      .poll(() => page.getByTestId('announcer').textContent(), { timeout: 30_000 })
      .toBe(`New lead: ${name}.`);
  });
});
