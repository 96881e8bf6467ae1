import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ZOOMABLE } from './screens';
import { browserApp, must, syncedFolder } from './stack';

/**
 * What the screenshot tour (`npm run screens`, test/e2e/screens-tour.ts) showed wrong at 800x600 and
 * at 200% zoom, each measured in the page: boxes, lines and computed borders, in CSS pixels.
 */
describe.sequential('layout at 800x600 and 200% zoom', () => {
  const f = browserApp('layout-e2e-');
  let page: Page;

  beforeAll(async () => {
    page = await f.sandboxPage(ZOOMABLE);
    await syncedFolder(f.app, f.root, 'site');
  });

  it('at 200% the sync state stays in view in the bar above the view', async () => {
    await page.setViewportSize({ width: 640, height: 410 });
    const badge = page.getByTestId('sync-state');
    await expect.poll(() => badge.textContent()).toMatch(/In sync/);
    const box = await badge.boundingBox();
    await page.setViewportSize(ZOOMABLE.viewport);
    // Hidden with the sidebar's status block, it had no box at all.
    expect(box).not.toBeNull();
    expect(box!.y + box!.height).toBeLessThanOrEqual(410);
  });

  it('at 200% the bar and the view’s header scroll away with the view, which then has the whole window', async () => {
    await page.setViewportSize({ width: 640, height: 410 });
    try {
      await f.nav(page, 'Settings');
      await page.getByRole('heading', { name: 'Settings', exact: true, level: 1 }).waitFor();
      const m = await page.evaluate(() => {
        const doc = document.scrollingElement!;
        doc.scrollTop = doc.scrollHeight;
        const bottom = (sel: string) => document.querySelector(sel)!.getBoundingClientRect().bottom;
        const content = document.querySelector('main .content')!.getBoundingClientRect();
        const out = { bar: bottom('.sidebar'), header: bottom('main .header'), contentTop: content.top };
        doc.scrollTop = 0;
        return out;
      });
      // Held in place, the bar took 92 px of the 410 and the Files view's header (two lines) 108 more.
      expect(m.bar).toBeLessThanOrEqual(0);
      expect(m.header).toBeLessThanOrEqual(0);
      expect(m.contentTop).toBeLessThanOrEqual(0);
    } finally {
      await page.setViewportSize(ZOOMABLE.viewport);
    }
  });

  it('at 200% the wallet stays in the bar beside the sync state (issue 34: nothing said it)', async () => {
    await page.setViewportSize({ width: 640, height: 410 });
    try {
      const wallet = page.locator('.sidebar-foot', { hasText: 'Wallet' }).getByText(/Wallet ₹/);
      await wallet.waitFor();
      const box = await wallet.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.y + box!.height).toBeLessThanOrEqual(410);
    } finally {
      await page.setViewportSize(ZOOMABLE.viewport);
    }
  });

  it('at 800x600 the Files filters are one row and the list reaches the window’s foot', async () => {
    await page.setViewportSize({ width: 800, height: 600 });
    try {
      await f.nav(page, 'Files');
      const list = page.locator('.files-main');
      await list.waitFor();
      const fields = await page
        .locator('.files-filters .field')
        .evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().top)));
      expect(new Set(fields).size).toBe(1);
      const box = (await list.boundingBox())!;
      // It stopped at 55% of the window: four rows over an empty band.
      expect(box.y + box.height).toBeGreaterThanOrEqual(600 - 48);
    } finally {
      await page.setViewportSize(ZOOMABLE.viewport);
    }
  });

  it('at 200% the Files list, scrolled to, has the window, not a box of about four rows', async () => {
    await page.setViewportSize({ width: 640, height: 410 });
    try {
      await f.nav(page, 'Files');
      const list = page.locator('.files-main');
      await list.waitFor();
      const h = (await list.boundingBox())!.height;
      // It was max(18rem, 55vh): 288 of 410 px, the toolbar, the header and the total leaving four rows.
      expect(h).toBeGreaterThanOrEqual(410 - 48);
    } finally {
      await page.setViewportSize(ZOOMABLE.viewport);
    }
  });

  it('Files at 800x600: a row’s Open link is drawn as its Delete button is, borderless and as wide', async () => {
    await page.setViewportSize({ width: 800, height: 600 });
    try {
      await f.nav(page, 'Files');
      await expect.poll(() => page.getByTestId('file-row').count()).toBe(3);
      const row = page.getByTestId('file-row').first();
      const open = row.getByTestId('file-url');
      const a = (await open.boundingBox())!;
      const b = (await row.getByRole('button', { name: /^Delete / }).boundingBox())!;
      // The link took the large button's padding and a border: 10 px wider than the button.
      expect(Math.abs(a.width - b.width)).toBeLessThan(1);
      expect(Math.abs(a.height - b.height)).toBeLessThan(1);
      // Polled: a live row can be drawn anew between finding the link and reading its style (then '').
      await expect
        .poll(() => open.evaluate((el) => getComputedStyle(el).borderTopColor))
        .toBe('rgba(0, 0, 0, 0)');
    } finally {
      await page.setViewportSize(ZOOMABLE.viewport);
    }
  });

  it('Files at 800x600 with a file selected: no action stands alone on a line', async () => {
    await page.setViewportSize({ width: 800, height: 600 });
    try {
      await page.getByTestId('file-row').first().locator('.c-name').click();
      const bar = page.getByRole('toolbar', { name: 'Selection' });
      await bar.getByRole('button', { name: /^Delete/ }).waitFor();
      // Each line of the actions holds two buttons or more (Delete… went to a line of its own).
      const lines = await bar.locator('.files-actions').evaluate((actions) => {
        const byTop = new Map<number, string[]>();
        for (const b of actions.querySelectorAll('button')) {
          const top = Math.round(b.getBoundingClientRect().top);
          byTop.set(top, [...(byTop.get(top) ?? []), (b.textContent ?? '').trim()]);
        }
        return [...byTop.values()];
      });
      expect(lines.filter((l) => l.length < 2)).toEqual([]);
      await page.getByRole('button', { name: 'Clear', exact: true }).click();
    } finally {
      await page.setViewportSize(ZOOMABLE.viewport);
    }
  });

  it('Form fields: what is typed, chosen or suggested in a field is in normal weight, not its label’s', async () => {
    await f.nav(page, 'Files');
    await page.locator('label.field input[placeholder]').first().waitFor();
    const weights = async () =>
      page.evaluate(() =>
        // A field inside its label, or beside it in a div.field (the Import list's box: issue 34).
        [...document.querySelectorAll(':is(label.field, div.field) :is(input, select, textarea)')].map(
          (el) => ({
            tag: el.tagName.toLowerCase(),
            label: getComputedStyle(el.closest('.field')!).fontWeight,
            value: getComputedStyle(el).fontWeight,
            placeholder: el.hasAttribute('placeholder')
              ? getComputedStyle(el, '::placeholder').fontWeight
              : '400',
          }),
        ),
      );
    // The filter's search, bucket, type and extensions; a textarea in the Import dialog.
    const filters = await weights();
    await page.getByRole('button', { name: 'Import list' }).click();
    const dialog = await weights();
    await page.keyboard.press('Escape');
    const fields = [...filters, ...dialog];
    expect(new Set(fields.map((x) => x.tag))).toEqual(new Set(['input', 'select', 'textarea']));
    // Each inherited its label's 550 (`font: inherit`): values and placeholders read as headings.
    expect(fields.every((x) => x.label === '550')).toBe(true);
    expect(fields.filter((x) => x.value !== '400' || x.placeholder !== '400')).toEqual([]);
  });

  it('Usage at 800x600: the chart writes its scales and dates at 11 px, and its rent figures do not touch', async () => {
    await must(f.app.call('sandbox.advanceClock', { days: 12 }));
    await page.setViewportSize({ width: 800, height: 600 });
    try {
      // The chart's scale the moment it enters the page (before any paint can show it): drawn first at
      // 760 and corrected a frame later, it was read at 7 px once in CI.
      await page.evaluate(() => {
        const w = window as unknown as { chartFirstScale?: number };
        delete w.chartFirstScale;
        const o = new MutationObserver(() => {
          const svg = document.querySelector<SVGSVGElement>('[data-testid="usage-chart"]');
          if (!svg || svg.querySelectorAll('rect.bar').length === 0) return;
          w.chartFirstScale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
          o.disconnect();
        });
        o.observe(document.body, { subtree: true, childList: true });
      });
      await f.nav(page, 'Usage');
      const chart = page.getByTestId('usage-chart');
      await expect.poll(() => chart.locator('rect.bar').count()).toBeGreaterThanOrEqual(10);
      const first = await page.evaluate(
        () => (window as unknown as { chartFirstScale?: number }).chartFirstScale,
      );
      expect(first).toBeCloseTo(1, 1);
      const m = await chart.evaluate((svg) => {
        const scale = svg.getBoundingClientRect().width / (svg as SVGSVGElement).viewBox.baseVal.width;
        const sizes = [...svg.querySelectorAll('text')].map(
          (t) => Number.parseFloat(getComputedStyle(t).fontSize) * scale,
        );
        // Neighbouring labels of one row (the dates, the rent figures) must not overlap.
        const touching = (cls: string | null) => {
          const boxes = [...svg.querySelectorAll('text')]
            .filter((t) =>
              cls
                ? t.classList.contains(cls)
                : t.getAttribute('class') === null && t.getAttribute('text-anchor') === 'middle',
            )
            .map((t) => t.getBoundingClientRect())
            .sort((a, b) => a.left - b.left);
          return boxes.slice(1).filter((b, i) => b.left < boxes[i]!.right).length;
        };
        return { smallest: Math.min(...sizes), dates: touching(null), rents: touching('rent-value') };
      });
      // A 760-wide drawing in a 485-px card wrote 11-px text at 7 px.
      expect(m.smallest).toBeGreaterThanOrEqual(11);
      expect(m.dates).toBe(0);
      expect(m.rents).toBe(0);
    } finally {
      await page.setViewportSize(ZOOMABLE.viewport);
    }
  });

  it('Usage: the chart writes a day’s rent only where it is not zero (a free day’s ₹0.00 sat on its bar)', async () => {
    // At 1280 wide each day has room for its figure; the days are the ones the test above measured.
    await f.nav(page, 'Usage');
    const chart = page.getByTestId('usage-chart');
    await expect.poll(() => chart.locator('rect.bar').count()).toBeGreaterThanOrEqual(10);
    const m = await chart.evaluate((svg) => {
      // A point's tooltip: "2026-12-02: 12 KiB in 3 files, rent ₹0.00 (free)".
      const rents = [...svg.querySelectorAll('circle.pt title')].map(
        (t) => /rent (\S+)/.exec(t.textContent!)![1],
      );
      return { rents, written: [...svg.querySelectorAll('text.rent-value')].map((t) => t.textContent) };
    });
    // The sandbox's first days are free: drawn, each wrote "₹0.00" over the base of its bar.
    expect(m.rents).toContain('₹0.00');
    expect(m.written).toEqual(m.rents.filter((r) => r !== '₹0.00'));
  });

  it('Account: the file types wrap between types, never with a "·" first on a line', async () => {
    await f.nav(page, 'Account');
    const cell = page
      .getByRole('row', { name: /^File types/ })
      .locator('td')
      .nth(1);
    await cell.waitFor();
    // The first visible character of each line the list is drawn in, at every width from a narrow
    // window to the test's own: where the list breaks depends on the width.
    const firsts = () =>
      cell.evaluate((td) => {
        const byTop = new Map<number, { left: number; ch: string }>();
        const walk = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
        for (let n = walk.nextNode(); n; n = walk.nextNode()) {
          const text = n.textContent ?? '';
          for (let i = 0; i < text.length; i++) {
            if (!text[i]!.trim()) continue;
            const r = document.createRange();
            r.setStart(n, i);
            r.setEnd(n, i + 1);
            const box = r.getBoundingClientRect();
            const top = Math.round(box.top);
            const seen = byTop.get(top);
            if (!seen || box.left < seen.left) byTop.set(top, { left: box.left, ch: text[i]! });
          }
        }
        return [...byTop.values()].map((x) => x.ch);
      });
    const starts = new Set<string>();
    let lines = 0;
    try {
      for (let width = 560; width <= 1280; width += 8) {
        await page.setViewportSize({ width, height: 600 });
        const f1 = await firsts();
        lines = Math.max(lines, f1.length);
        for (const ch of f1) starts.add(ch);
      }
    } finally {
      await page.setViewportSize(ZOOMABLE.viewport);
    }
    // It did wrap somewhere, and no line of it began with the separator.
    expect(lines).toBeGreaterThan(1);
    expect(starts.has('·')).toBe(false);
  });

  it('Leads at 800x600: each lead is a card without the table’s cell borders and padding', async () => {
    // Two: the base table draws no border under its last row, so the first card is the one to measure.
    await must(f.app.call('sandbox.raiseLead', { event: 'HANDOFF-REQUESTED' }));
    const lead = await must(f.app.call('sandbox.raiseLead', { event: 'LEAD-CAPTURED' }));
    await page.setViewportSize({ width: 800, height: 600 });
    try {
      await f.nav(page, 'Leads');
      const card = page.locator('.leads-table tbody tr').first();
      await expect.poll(() => card.textContent()).toContain(lead.name);
      expect(await page.locator('.leads-table tbody tr').count()).toBe(2);
      const m = await card.evaluate((tr) => {
        const cells = [...tr.querySelectorAll('td')];
        const name = tr.querySelector('.lead-open')!.getBoundingClientRect().left;
        return {
          // The base table's cell borders drew broken lines across the card (app.css came last).
          borders: cells.map((td) => getComputedStyle(td).borderBottomWidth),
          // The name starts at the card's own padding, not that plus the cell's.
          inset: name - tr.getBoundingClientRect().left,
          padding: Number.parseFloat(getComputedStyle(tr).paddingLeft),
        };
      });
      expect(m.borders).toEqual(['0px', '0px', '0px', '0px']);
      expect(Math.abs(m.inset - m.padding)).toBeLessThan(1);
    } finally {
      await page.setViewportSize(ZOOMABLE.viewport);
    }
  });
});
