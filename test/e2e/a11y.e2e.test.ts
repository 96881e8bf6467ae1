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

  /** The focused element's name as tabTo reads it; null when focus is lost (on the page itself). */
  const focused = () =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      return (el.getAttribute('aria-label') ?? el.getAttribute('name') ?? el.textContent ?? '').trim();
    });

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
      .toMatch(/In sync: .*keys · Live \d/);
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

  it('by keyboard alone: Upload now puts a waiting file first, and the keyboard goes on from the next one', async () => {
    expect((await stack.app.call('sync.pause', {})).ok).toBe(true);
    const dir = join(stack.root, 'keys');
    for (const n of ['d.txt', 'e.txt', 'f.txt']) writeFileSync(join(dir, n), `${n}\n`);
    await nav('Folders');
    await expect.poll(() => page.getByTestId('next-row').count(), { timeout: 30_000 }).toBe(3);
    // Each button names its file (three "Upload now" alike said nothing to a screen reader).
    await tabTo(/^Upload now: f\.txt$/);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('next-row').first().textContent()).toContain('f.txt');
    // Its button went with the move; focus is on the one that took its place, not at the page's start.
    await expect.poll(focused).toMatch(/^Upload now: [de]\.txt$/);
    await audit(page, 'a11y-upload-now');
    expect((await stack.app.call('sync.resume', {})).ok).toBe(true);
    // Settled (the folder in sync again, and said so) before the next test listens to the live region.
    await expect.poll(() => page.getByTestId('next-row').count(), { timeout: 30_000 }).toBe(0);
    await page.getByTestId('folder-card').getByText('In sync', { exact: true }).waitFor({ timeout: 30_000 });
  });

  it('a new lead is said in the live region', async () => {
    const r = await stack.app.call('sandbox.raiseLead', { event: 'LEAD-CAPTURED' });
    expect(r.ok).toBe(true);
    const name = r.ok ? r.value.name : '';
    await expect
      .poll(() => page.getByTestId('announcer').textContent(), { timeout: 30_000 })
      .toBe(`New lead: ${name}.`);
  });

  it('by keyboard alone: a lead handled, and the mark taken back; focus stays on its button', async () => {
    await nav('Leads');
    await expect.poll(() => page.locator('tbody tr').count(), { timeout: 30_000 }).toBe(1);
    const button = page.locator('tbody tr').first().locator('.lead-state button');
    await tabTo(/^Mark handled$/);
    await page.keyboard.press('Enter');
    await expect.poll(() => button.getAttribute('aria-pressed')).toBe('true');
    expect(await focused()).toBe('Handled');
    await audit(page, 'a11y-lead-handled');
    const all = await stack.app.call('leads.list', {});
    expect(all.ok && all.value.leads.every((l) => l.handledAt)).toBe(true);
    await page.keyboard.press('Space');
    await expect.poll(() => button.getAttribute('aria-pressed')).toBe('false');
    expect(await focused()).toBe('Mark handled');
  });

  it('by keyboard alone: an entry added, changed on the service, edited here, the conflict merged', async () => {
    await nav('Knowledge');
    await page.getByText('Demo bot', { exact: true }).waitFor();
    await tabTo(/^New$/);
    await page.keyboard.press('Enter');
    // "New" leads straight to the title.
    await expect.poll(focused).toBe('title');
    await page.keyboard.type('Opening hours');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Monday to Saturday, 9 to 6.');
    await tabTo(/^Add entry$/);
    await page.keyboard.press('Enter');
    // The draft's form gave way to the entry's: focus is on its heading, not at the page's start.
    await expect.poll(focused).toBe('Edit entry');
    await page.getByText('All changes synced').waitFor({ timeout: 30_000 });

    const changed = await stack.app.call('sandbox.changeEntry', {});
    expect(changed.ok).toBe(true);
    await tabTo(/^Description/);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('Monday to Sunday, 9 to 6.');
    await tabTo(/^Save$/);
    await page.keyboard.press('Enter');
    // Saved, "Save" is disabled: focus went to the heading (or, once the sync met the conflict, to
    // the conflict's first choice), not to the page's start.
    await expect.poll(focused).toMatch(/^(Edit entry|Edit a merge)$/);
    await page.getByText('1 to resolve').waitFor({ timeout: 30_000 });
    await page.getByText('Changed in two places.').waitFor();
    // The service's time in the app's one form, labelled; the banner lines up with the two versions.
    expect(await page.getByText(/^On the server/).textContent()).toMatch(
      /^On the server \(changed \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} IST\)$/,
    );
    const edges = await page.evaluate(() => {
      const c = document.querySelector('section[aria-label="Conflict"]')!;
      const x = (sel: string) => Math.round(c.querySelector(sel)!.getBoundingClientRect().left);
      return [x('.banner'), x('.row')];
    });
    expect(edges[0]).toBe(edges[1]);
    await screens(page, 'a11y-kb-conflict');
    if ((await focused()) !== 'Edit a merge') await tabTo(/^Edit a merge$/);
    await page.keyboard.press('Enter');
    await expect.poll(focused).toBe('merge-title');
    await tabTo(/^Description/);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('Every day, 9 to 6.');
    await tabTo(/^Save the merge$/);
    await page.keyboard.press('Enter');
    await page.getByText('Changed in two places.').waitFor({ state: 'hidden' });
    await expect.poll(focused).toBe('Edit entry');
    await page.getByText('All changes synced').waitFor({ timeout: 30_000 });
    const bots = await stack.app.call('kb.bots', {});
    const botId = bots.ok ? bots.value.bots[0]!.id : 0;
    const snap = await stack.app.call('kb.entries', { botId });
    expect(snap.ok && snap.value.entries.map((e) => e.description)).toContain('Every day, 9 to 6.');
  });
});
