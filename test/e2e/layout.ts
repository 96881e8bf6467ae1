import type { Locator } from 'playwright-core';

/**
 * Layout measured in the page (issue 23): what a person sees as a line, a scroll box or a row of
 * controls, in CSS pixels from the elements' boxes.
 */

/** How many lines the element's text takes (distinct tops of its text's boxes). */
export function lineCount(el: Locator): Promise<number> {
  return el.evaluate((node) => {
    const range = document.createRange();
    range.selectNodeContents(node);
    const tops = new Set<number>();
    for (const r of range.getClientRects()) if (r.width > 0) tops.add(Math.round(r.top));
    return tops.size;
  });
}

/** The elements inside `el` (itself included) that scroll on their own, textareas aside. */
export function scrollBoxesIn(el: Locator): Promise<string[]> {
  return el.evaluate((root) =>
    [root, ...root.querySelectorAll('*')]
      .filter((e) => {
        if (e.tagName === 'TEXTAREA') return false;
        const s = getComputedStyle(e);
        const scrolls = (o: string) => o === 'auto' || o === 'scroll';
        return (
          (scrolls(s.overflowY) && e.scrollHeight > e.clientHeight + 1) ||
          (scrolls(s.overflowX) && e.scrollWidth > e.clientWidth + 1)
        );
      })
      .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}`),
  );
}

/** The top edge of each element, rounded to a tenth of a pixel. */
export async function tops(els: Locator[]): Promise<number[]> {
  const out: number[] = [];
  for (const el of els) {
    const box = await el.boundingBox();
    if (!box) throw new Error(`${el} is not on screen`);
    out.push(Math.round(box.y * 10) / 10);
  }
  return out;
}

/** The largest difference between the tops of the elements: 0 when they stand in one row. */
export async function topSpread(els: Locator[]): Promise<number> {
  const t = await tops(els);
  return Math.max(...t) - Math.min(...t);
}
