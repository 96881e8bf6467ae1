import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { audit } from './a11y';
import { SCREENSHOTS } from './stack';

/** Sideways scrolling of the document and of the main column, in CSS pixels (0 when it reflows). */
async function overflow(page: Page) {
  return page.evaluate(() => {
    const doc = document.documentElement;
    const main = document.querySelector('main');
    return {
      doc: doc.scrollWidth - doc.clientWidth,
      main: main ? main.scrollWidth - main.clientWidth : 0,
    };
  });
}

/**
 * The page as it is now, in four looks: `<name>-light.png`, `-dark.png`, `-800x600.png` and
 * `-zoom200.png`, without leaving the state it is in (an open dialog, an undo bar). Dark is the
 * app's own theme attribute, set directly. 200% zoom is what Chromium's browser zoom does on a
 * 1280x820 window: a 640x410 CSS-pixel layout at device scale 2 (as in desktop-app.e2e.test.ts),
 * so the page must come from a context with `deviceScaleFactor: 2` (`ZOOMABLE`); the other looks
 * are taken at CSS scale. At 800x600 and 200% nothing may scroll sideways; `target` (what the
 * picture is about) is scrolled into view there first.
 */
export const ZOOMABLE = { viewport: { width: 1280, height: 860 }, deviceScaleFactor: 2 } as const;

/**
 * Scrolls the picture's subject into view. A live view may replace the element under it (a failed
 * file's automatic retry re-renders its row), so a detached element is looked up again, a few times;
 * the picture is taken either way, and the sideways-scroll checks do not depend on it.
 */
async function bringIntoView(target: Locator | undefined) {
  for (let attempt = 0; target && attempt < 5; attempt++) {
    try {
      await target.scrollIntoViewIfNeeded({ timeout: 5_000 });
      return;
    } catch (e) {
      if (!/not attached|detached|Timeout/i.test(String(e))) throw e;
    }
  }
}

export async function screens(page: Page, name: string, target?: Locator): Promise<string[]> {
  const files = ['light', 'dark', '800x600', 'zoom200'].map((look) =>
    join(SCREENSHOTS, `${name}-${look}.png`),
  );
  expect(await page.evaluate(() => devicePixelRatio), 'open the page with ZOOMABLE').toBe(2);
  const size = page.viewportSize()!;
  const theme = await page.evaluate(() => document.documentElement.dataset.theme ?? 'light');
  const setTheme = (t: string) =>
    page.evaluate((value) => {
      document.documentElement.dataset.theme = value;
    }, t);
  try {
    const problems: string[] = [];
    // Every look is audited (axe, WCAG 2.1 AA); the pictures are all taken before a failure is told.
    // The dark look changes colours only: its audit is the contrast rule alone (the rest was just run).
    const check = async (look: string) => {
      const only = look === 'dark' ? ['color-contrast'] : undefined;
      await audit(page, `${name} (${look})`, only).catch((e: Error) => problems.push(e.message));
    };
    await setTheme('light');
    await page.screenshot({ path: files[0], scale: 'css' });
    await check('light');
    await setTheme('dark');
    await page.screenshot({ path: files[1], scale: 'css' });
    await check('dark');
    await setTheme('light');
    await page.setViewportSize({ width: 800, height: 600 });
    await bringIntoView(target);
    await page.screenshot({ path: files[2], scale: 'css' });
    await check('800x600');
    expect(await overflow(page), `${name} scrolls sideways at 800x600`).toEqual({ doc: 0, main: 0 });
    await page.setViewportSize({ width: 640, height: 410 });
    await bringIntoView(target);
    await page.screenshot({ path: files[3], scale: 'device' });
    await check('200%');
    expect(await overflow(page), `${name} scrolls sideways at 200% zoom`).toEqual({ doc: 0, main: 0 });
    expect(problems, 'the accessibility audit').toEqual([]);
  } finally {
    await page.setViewportSize(size);
    await setTheme(theme);
  }
  return files;
}
